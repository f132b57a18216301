import { paraglideVitePlugin } from "@inlang/paraglide-js";
import { reactRouter } from "@react-router/dev/vite";
import tailwindcss from "@tailwindcss/vite";
import { defineConfig } from "vite";
import { MESSAGES_COMPILE_OPTIONS } from "./messages.config.ts";
import { compileMessages, forgetCompiledMessages } from "./scripts/compile-messages.ts";
import { oneLanguageMessages } from "./scripts/one-language-messages.ts";

/**
 * The modules every public page uses travel in one browser chunk, "site", with React and React
 * Router (which they pull in). Left to itself the bundler splits them by which routes share
 * them, and the home page loaded 28 files; on a slow phone connection each costs a round trip
 * before the first paint. Admin-only modules are never listed here: they stay in chunks that
 * only the Sanctum loads. See docs/benchmarks.md.
 */
const SITE_MODULES = [
  /node_modules\/clsx\//,
  // React DOM's small module (portals, flushSync): a file of its own otherwise.
  /node_modules\/react-dom\/(index\.js|cjs\/react-dom\.production\.js)$/,
  // Texts several public pages share: the bundler makes a ~100-byte file of each (decision 039).
  /\/app\/paraglide\/messages\/(calendar_list_separator|calendar_none_title|home_event_details|nav_prophecies|news_heading|stats_live_now|stats_past_events)\.js$/,
  // The icons of the public pages (their data: app/components/ui/icon.tsx draws them).
  /node_modules\/lucide\/dist\/esm\/icons\/(arrow-right|calendar-days|chevron-left|chevron-right|clock|globe|loader-circle|menu|scroll-text|sparkles|triangle-alert|users|x)\.mjs$/,
  /\/app\/components\/ui\/(badge|button|card|empty-state|icon|skeleton|tabs)\.tsx$/,
  /\/app\/features\/events\/(event-badges|event-card|event-timing|event-when)\.tsx?$/,
  /\/app\/features\/vrchat\/(group-data|live-group|nav-stats)\.tsx?$/,
  // The profile link's reading: an event's page uses it too, which would otherwise load the form's chunk.
  /\/app\/utils\/(sanctum-path\.ts|viewer-time-zone\.tsx|vrchat-profile-link\.ts)$/,
  // The root and the site's layout, on every page: as files of their own they cost 1 KB gzip more
  // (their own headers, and the long lists of what they import from this chunk).
  /\/app\/(root|routes\/_site)\.tsx$/,
  /\/app\/features\/site\/(site-nav|site-footer|language-menu)\.tsx$/,
  /\/app\/features\/events\/event-detail-skeleton\.tsx$/,
  /\/app\/utils\/nonce\.tsx$/,
];

/**
 * The application form's parts, in one chunk "form" (the group's and an event's form, the status
 * page's edit, the Sanctum's preview): eight small files otherwise, each with its own overhead.
 */
const FORM_MODULES = [
  /\/app\/features\/applications\/(application-form\.tsx|answers\.ts)$/,
  /\/app\/components\/ui\/(field\.ts|lazy-toast\.tsx)$/,
  /\/app\/paraglide\/messages\/apply_prove\.js$/,
];

const CLIENT_LANGUAGE = process.env.DWELL_CLIENT_LANGUAGE;

/**
 * The dev server (`npm run dev`, which sets DWELL_DEV_SERVER) compiles the messages a module a
 * language, through Paraglide's plugin, again as a catalogue changes: one a message made a page load
 * over 4,000 files and take 15 s (decision 047). Every other start (the build, the route types) finds
 * them compiled in messages.config.ts's layout, compiling them first only if a catalogue changed.
 */
const DEV_SERVER = Boolean(process.env.DWELL_DEV_SERVER);
if (DEV_SERVER) forgetCompiledMessages();
else await compileMessages();
const DEV_MESSAGES = DEV_SERVER ? [paraglideVitePlugin({ ...MESSAGES_COMPILE_OPTIONS, outputStructure: "locale-modules" })] : [];

/** The server's dependencies bundled into build/server (see environments.ssr below). */
const SERVER_BUNDLED = ["drizzle-orm", "zod", "better-auth", /^@better-auth\//, "better-call", "jose", "hono", /^@hono\//, "altcha-lib"];

export default defineConfig({
  resolve: { tsconfigPaths: true },
  environments: {
    client: {
      // One language's browser code (scripts/build.ts): the other languages' texts are left out.
      // Without it (a plain `react-router build`, development) the browser has every language.
      define: CLIENT_LANGUAGE ? { "globalThis.__PARAGLIDE_STATIC_LOCALE__": JSON.stringify(CLIENT_LANGUAGE) } : {},
      build: {
        rolldownOptions: {
          output: {
            codeSplitting: {
              groups: [
                // Vite's loader for a file fetched later (the home page's statistics, the form's toasts):
                // a file of its own, so that the home page does not load the form's chunk for it (decision 046).
                { name: "preload", test: /vite\/preload-helper/, priority: 2 },
                { name: "site", test: (id: string) => SITE_MODULES.some((pattern) => pattern.test(id)) },
                { name: "form", test: (id: string) => FORM_MODULES.some((pattern) => pattern.test(id)) },
              ],
            },
          },
        },
      },
    },
    // The Hono server is the SSR entry, so it, the routes, the database and auth share one bundle
    // (and one database connection). Vite 8 ignores the top-level build.rollupOptions recipe here.
    ssr: {
      // Pure-JavaScript packages the server loads at every start travel inside its bundle: loaded from
      // node_modules they were some 400 modules, each resolved through its package.json (drizzle-orm's
      // is 179 KB) and compiled apart, a second of a start's CPU (decision 030). React and React Router
      // stay outside (the packages that import them must share one copy), and so do the packages that
      // find files beside their own (PGlite's WebAssembly, nodemailer).
      resolve: { noExternal: SERVER_BUNDLED },
      build: {
        rolldownOptions: { input: "./server/app.ts" },
      },
    },
  },
  plugins: [...DEV_MESSAGES, oneLanguageMessages(CLIENT_LANGUAGE), tailwindcss(), reactRouter()],
});
