import { Menu, X } from "lucide";
import { Icon } from "~/components/ui/icon";
import { useState } from "react";
import { href, Link, NavLink } from "react-router";
import { clsx } from "clsx";
import { m } from "~/paraglide/messages";

/** The site's sections, in the page's language. */
const navLinks = () => [
  { to: href("/"), label: m.nav_calling(), end: true },
  { to: href("/events"), label: m.nav_prophecies(), end: false },
  { to: href("/admin"), label: m.nav_sanctum(), end: false },
];

function linkClass({ isActive }: { isActive: boolean }) {
  return clsx(
    "rounded-lg px-3 py-2 text-sm font-semibold tracking-wide transition-colors",
    isActive
      ? "bg-aurora-500/20 text-ember-300"
      : "text-mist-300 hover:bg-white/5 hover:text-mist-100",
  );
}

export function SiteNav({ stats, languageMenu }: { stats?: React.ReactNode; languageMenu?: React.ReactNode }) {
  const [open, setOpen] = useState(false);
  const links = navLinks();
  return (
    // Opaque, without a frosted backdrop: the live indicator in the header pulses, and under a frost
    // every frame of it redraws the frosted page behind the whole header (on a machine that draws
    // without a GPU, 39 % of a core against 10 %, for a difference nobody could see).
    <header className="sticky top-0 z-40 border-b border-aurora-400/15 bg-night-950">
      <nav aria-label={m.nav_label()} className="mx-auto flex max-w-6xl items-center gap-4 px-4 py-3 sm:px-6">
        <Link to={href("/")} className="flex items-center gap-2" onClick={() => setOpen(false)}>
          <img src="/favicon.svg" alt="" width={32} height={32} className="size-8" />
          <span className="sr-only font-display text-xl font-semibold tracking-[0.2em] text-mist-100 min-[420px]:not-sr-only">
            DWELL
          </span>
        </Link>

        <ul className="ml-4 hidden items-center gap-1 md:flex">
          {links.map((link) => (
            <li key={link.to}>
              <NavLink to={link.to} end={link.end} className={linkClass}>
                {link.label}
              </NavLink>
            </li>
          ))}
        </ul>

        <div className="ml-auto flex items-center gap-2 sm:gap-3">
          {stats}
          <button
            type="button"
            className="inline-flex size-10 items-center justify-center rounded-lg text-mist-300 hover:bg-white/5 md:hidden"
            aria-expanded={open}
            aria-controls="site-menu"
            aria-label={open ? m.nav_close_menu() : m.nav_open_menu()}
            onClick={() => setOpen((value) => !value)}
          >
            {open ? <Icon node={X} /> : <Icon node={Menu} />}
          </button>
        </div>
      </nav>
      <ul
        id="site-menu"
        hidden={!open}
        className="border-t border-aurora-400/15 px-4 py-3 md:hidden"
      >
        {links.map((link) => (
          <li key={link.to}>
            <NavLink
              to={link.to}
              end={link.end}
              className={(state) => clsx(linkClass(state), "block")}
              onClick={() => setOpen(false)}
            >
              {link.label}
            </NavLink>
          </li>
        ))}
        {languageMenu ? <li className="mt-2 border-t border-aurora-400/15 px-3 pt-3">{languageMenu}</li> : null}
      </ul>
    </header>
  );
}
