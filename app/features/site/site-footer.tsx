import { href, Link } from "react-router";
import { m } from "~/paraglide/messages";
import { LanguageMenu } from "./language-menu";

export function SiteFooter({ language, languages }: { language: string; languages: readonly string[] }) {
  return (
    <footer className="mt-24 border-t border-aurora-400/15 bg-night-950/60">
      <div className="mx-auto flex max-w-6xl flex-col items-center gap-2 px-6 py-10 text-center">
        <p className="font-display text-lg tracking-[0.2em] text-mist-100">DWELL</p>
        <p className="text-sm text-mist-400">{m.footer_tagline()}</p>
        <Link to={href("/news")} className="text-sm font-semibold text-aurora-300 hover:text-ember-300">
          {m.news_heading()}
        </Link>
        <div className="mt-4">
          <LanguageMenu id="footer-language" language={language} languages={languages} />
        </div>
      </div>
    </footer>
  );
}
