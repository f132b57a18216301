import { Outlet } from "react-router";
import { SiteFooter } from "~/features/site/site-footer";
import { SiteNav } from "~/features/site/site-nav";

export default function SiteLayout() {
  return (
    <div className="flex min-h-dvh flex-col">
      {/* The live member and online counts and the LIVE NOW button join the bar with the VRChat data. */}
      <SiteNav />
      <main id="main" className="flex-1">
        <Outlet />
      </main>
      <SiteFooter />
    </div>
  );
}
