import { useEffect } from "react";
import {
  isRouteErrorResponse,
  Links,
  Meta,
  Outlet,
  Scripts,
  ScrollRestoration,
  useLocation,
  useRouteLoaderData,
  type ShouldRevalidateFunctionArgs,
} from "react-router";
import type { Route } from "./+types/root";
import stylesheet from "./app.css?url";
import { appContext } from "./context";
import { validTimeZone } from "./features/events/event-timing";
import { publicConfig } from "./utils/env.server";
import { previewMeta } from "./utils/preview-meta.server";
import { m } from "./paraglide/messages";
import { currentLanguage, loadAgainInLanguage, setPageLanguage } from "./utils/language";
import { useNonce } from "./utils/nonce";
import { isSanctumPath } from "./utils/sanctum-path";
import {
  DEFAULT_TIME_ZONE,
  readTimeZoneCookie,
  timeZoneHintScript,
  ViewerTimeZoneProvider,
} from "./utils/viewer-time-zone";

export function loader({ request, context }: Route.LoaderArgs) {
  const { config } = context.get(appContext);
  // The visitor's language on public pages; in the Sanctum, the staff member's (the admin layout's middleware).
  const language = currentLanguage();
  const timeZone =
    validTimeZone(readTimeZoneCookie(request.headers.get("Cookie"))) ?? DEFAULT_TIME_ZONE;
  // The home page's preview, and every page's that has none of its own.
  // Links in previews point at the site's public address (PUBLIC_URL), never at a request's Host.
  const meta = previewMeta(config.PUBLIC_URL, {
    title: m.site_title(),
    previewTitle: m.site_preview_title(),
    description: m.site_description(),
    path: new URL(request.url).pathname,
  });
  return {
    timeZone,
    publicConfig: publicConfig(config),
    meta,
    language,
    // The languages a visitor may choose (the footer's menu, the pages' alternates).
    languages: config.SITE_LANGUAGES,
    origin: config.PUBLIC_URL,
  };
}

/**
 * The page's language differs between the Sanctum (the staff member's) and the public pages (the
 * visitor's): crossing between them reads it again.
 */
export function shouldRevalidate({ currentUrl, nextUrl, defaultShouldRevalidate }: ShouldRevalidateFunctionArgs) {
  return defaultShouldRevalidate || isSanctumPath(currentUrl.pathname) !== isSanctumPath(nextUrl.pathname);
}

export const links: Route.LinksFunction = () => [
  // With a precedence React puts the stylesheet first in <head>, ahead of the script preloads:
  // it is what holds back the first paint, so it should not queue behind them.
  { rel: "stylesheet", href: stylesheet, precedence: "high" },
  { rel: "icon", href: "/favicon.svg", type: "image/svg+xml" },
];

export function meta({ loaderData }: Route.MetaArgs) {
  return loaderData?.meta ?? [{ title: m.site_title() }];
}

/**
 * The same page in each language the site offers, for search engines: its address with `?lang=`,
 * and the address alone for a visitor whose language is not offered. Not in the Sanctum.
 */
function LanguageAlternates({ origin, languages }: { origin: string; languages: readonly string[] }) {
  const { pathname } = useLocation();
  if (languages.length < 2 || pathname.startsWith("/admin")) return null;
  return (
    <>
      {languages.map((language) => (
        <link key={language} rel="alternate" hrefLang={language} href={`${origin}${pathname}?lang=${language}`} />
      ))}
      <link rel="alternate" hrefLang="x-default" href={`${origin}${pathname}`} />
    </>
  );
}

export function Layout({ children }: { children: React.ReactNode }) {
  const data = useRouteLoaderData<typeof loader>("root");
  const timeZone = data?.timeZone ?? DEFAULT_TIME_ZONE;
  const language = data?.language ?? "en";
  // Before anything below renders a text: it is in this page's language.
  setPageLanguage(language);
  const nonce = useNonce();
  // Says the page runs: some controls change once JavaScript is there (a form's 'Apply' button
  // goes), and the end-to-end tests look at the page after that.
  useEffect(() => {
    document.documentElement.dataset.hydrated = "";
  }, []);
  useEffect(() => {
    loadAgainInLanguage(language);
  }, [language]);
  return (
    <html lang={language}>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="theme-color" content="#07061a" />
        <script nonce={nonce} dangerouslySetInnerHTML={{ __html: timeZoneHintScript(timeZone) }} />
        <Meta />
        <Links />
        {data ? <LanguageAlternates origin={data.origin} languages={data.languages} /> : null}
      </head>
      <body className="font-sans antialiased">
        <ViewerTimeZoneProvider timeZone={timeZone}>{children}</ViewerTimeZoneProvider>
        <ScrollRestoration />
        <Scripts />
      </body>
    </html>
  );
}

export default function App() {
  return <Outlet />;
}

/** React Router's default error page, in the site's colours: title, message and stack. */
export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  let message: string;
  let stack: string | undefined;
  if (isRouteErrorResponse(error)) {
    message = `${error.status} ${error.statusText}`;
  } else if (error instanceof Error) {
    message = error.message;
    stack = error.stack;
  } else {
    message = String(error);
  }
  return (
    <main className="mx-auto max-w-3xl px-6 py-20">
      <h2 className="font-display text-3xl text-ember-300">Unexpected Application Error!</h2>
      <h3 className="mt-4 text-lg text-mist-100">{message}</h3>
      {stack ? (
        <pre className="mt-6 overflow-x-auto rounded-xl bg-night-900 p-4 text-xs text-mist-300">
          {stack}
        </pre>
      ) : null}
    </main>
  );
}
