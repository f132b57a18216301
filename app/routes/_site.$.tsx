import { useEffect } from "react";
import { data, href, Link, useLocation } from "react-router";
import { Button } from "~/components/ui/button";
import { m } from "~/paraglide/messages";
import { log } from "~/utils/log.server";
import type { Route } from "./+types/_site.$";

export function loader({ request }: Route.LoaderArgs) {
  const { pathname } = new URL(request.url);
  log.warn("page not found", { path: pathname });
  return data(null, { status: 404 });
}

export function meta() {
  return [{ title: m.not_found_title() }];
}

export default function NotFound() {
  const { pathname } = useLocation();
  useEffect(() => {
    console.error("404 Error: User attempted to access non-existent route:", pathname);
  }, [pathname]);
  return (
    <div className="mx-auto flex max-w-xl flex-col items-center px-6 py-28 text-center">
      <h1 className="font-display text-8xl text-ember-300">404</h1>
      <p className="mt-4 text-xl text-mist-300">{m.not_found_text()}</p>
      <Button asChild variant="outline" className="mt-8">
        <Link to={href("/")}>{m.return_home()}</Link>
      </Button>
    </div>
  );
}
