/**
 * Part 1: page weight. Each public page is loaded in Chromium and the JS and CSS it actually
 * fetched (module preloads included) are gzipped and summed. The floor is a bare React Router app
 * (scripts/bench/floor/) built at bench time with the same installed versions and measured the
 * same way. Also checks that no admin route module, editor or drag-and-drop code reaches a public
 * page: by the route manifest, and by strings that only that code contains.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import { readFile, rm } from "node:fs/promises";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { extname, join, normalize } from "node:path";
import { pathToFileURL } from "node:url";
import { gzipSync } from "node:zlib";
import { getRequestListener } from "@hono/node-server";
import { chromium, type Browser } from "playwright-core";
import { createRequestHandler, type ServerBuild } from "react-router";
import { CHROMIUM_FLAGS, CHROMIUM_PATH as CHROMIUM } from "../../tests/setup/chromium.ts";
import { figure, type Figure, type Goal } from "./report.ts";
import { root, type Site } from "./site.ts";

const PART = "1 page weight";

/** Code that must stay off public pages, found by text that survives minification. */
const PRIVATE_CODE = [
  { label: "@dnd-kit", text: "To pick up a draggable item" },
  { label: "question editor", text: "Add your first application question above" },
  { label: "event editor", text: "Create New Prophecy" },
  { label: "uPlot charts", text: "u-cursor-pt" },
];

/**
 * Each page's weight against the floor, in either language (issue 53): each language's page carries
 * its own texts only, so a second language costs a page nothing.
 */
const PAGE_GOALS = {
  "/": { op: "<=", value: 1.22, text: "≤ 1.22 × floor" },
  "/events": { op: "<=", value: 1.18, text: "≤ 1.18 × floor" },
  "/events/{id}": { op: "<=", value: 1.2, text: "≤ 1.20 × floor" },
  "/apply": { op: "<=", value: 1.25, text: "≤ 1.25 × floor (30 questions of every type, 10 conditions)" },
} as const satisfies Record<string, Goal>;

interface Asset {
  path: string;
  bytes: number;
  gzip: number;
  text: string;
}

interface RouteManifest {
  entry: { module: string; imports: string[] };
  routes: Record<string, { id: string; module: string; imports?: string[]; css?: string[] }>;
}

interface PageLoad {
  assets: Asset[];
  manifest: RouteManifest | null;
}

async function loadPage(browser: Browser, url: string, locale = "en-US"): Promise<PageLoad> {
  // A returning visitor in UTC: the time zone script has nothing to reload for.
  const context = await browser.newContext({ timezoneId: "UTC", locale });
  await context.addCookies([{ name: "tz", value: "UTC", url }]);
  const page = await context.newPage();
  const reads: Promise<Asset | null>[] = [];
  page.on("response", (response) => {
    const path = new URL(response.url()).pathname;
    if (![".js", ".css"].includes(extname(path))) return;
    reads.push(
      response.body().then(
        (body) => ({ path, bytes: body.length, gzip: gzipSync(body, { level: 9 }).length, text: body.toString("utf8") }),
        () => null,
      ),
    );
  });
  const response = await page.goto(url, { waitUntil: "networkidle" });
  if (!response?.ok()) throw new Error(`${url} answered ${response?.status()}`);
  // Anything fetched after load (prefetching, lazy chunks) counts too.
  await page.waitForTimeout(1_000);
  const manifest = (await page.evaluate("window.__reactRouterManifest ?? null")) as RouteManifest | null;
  const assets = (await Promise.all(reads)).filter((asset): asset is Asset => asset !== null);
  await context.close();
  const unique = new Map(assets.map((asset) => [asset.path, asset]));
  return { assets: [...unique.values()], manifest };
}

/** Files that only admin routes load: their route modules and the chunks no public route shares. */
function adminOnlyFiles(manifest: RouteManifest): Set<string> {
  const isAdmin = (id: string) => id.includes("admin");
  const admin = new Set<string>();
  const shared = new Set<string>([manifest.entry.module, ...manifest.entry.imports]);
  for (const route of Object.values(manifest.routes)) {
    const files = [route.module, ...(route.imports ?? []), ...(route.css ?? [])];
    for (const file of files) (isAdmin(route.id) ? admin : shared).add(file);
  }
  for (const file of shared) admin.delete(file);
  return admin;
}

/** Builds the floor app into a temporary folder (node_modules linked in, for its server build) and serves it. */
async function serveFloor(): Promise<{ url: string; close(): Promise<void> }> {
  const dir = mkdtempSync(join(tmpdir(), "dwell-bench-floor-"));
  const build = spawnSync(join(root, "node_modules/.bin/react-router"), ["build"], {
    cwd: join(root, "scripts/bench/floor"),
    env: { ...process.env, DWELL_BENCH_FLOOR_BUILD: dir },
    encoding: "utf8",
  });
  if (build.status !== 0) throw new Error(`the floor app did not build:\n${build.stdout}\n${build.stderr}`);
  symlinkSync(join(root, "node_modules"), join(dir, "node_modules"));
  writeFileSync(join(dir, "package.json"), JSON.stringify({ name: "dwell-bench-floor", private: true, type: "module" }));

  const serverBuild = (await import(pathToFileURL(join(dir, "server/index.js")).href)) as ServerBuild;
  const handle = createRequestHandler(serverBuild, "production");
  const clientDir = join(dir, "client");
  const listener = getRequestListener(async (request) => {
    const path = normalize(decodeURIComponent(new URL(request.url).pathname));
    const file = join(clientDir, path);
    if (path.startsWith("/assets/") && file.startsWith(clientDir) && existsSync(file)) {
      const type = extname(file) === ".css" ? "text/css" : "text/javascript";
      return new Response(await readFile(file), { headers: { "Content-Type": type } });
    }
    // The floor has one page; anything else (a favicon) is simply not there.
    if (path !== "/") return new Response("Not found", { status: 404 });
    return handle(request);
  });
  const server = createServer((req, res) => void listener(req, res));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      await rm(dir, { recursive: true, force: true });
    },
  };
}

const kb = (bytes: number) => bytes / 1024;
const sum = (assets: Asset[], ext?: string) =>
  assets.filter((a) => !ext || extname(a.path) === ext).reduce((total, a) => total + a.gzip, 0);

export interface PageWeightResult {
  figures: Figure[];
  pages: Record<string, { jsGzip: number; cssGzip: number; files: { path: string; bytes: number; gzip: number }[] }>;
}

export async function measurePageWeight(site: Site, eventId: string): Promise<PageWeightResult> {
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_FLAGS });
  const floor = await serveFloor();
  try {
    const floorLoad = await loadPage(browser, `${floor.url}/`);
    const floorBytes = sum(floorLoad.assets);
    const pages: PageWeightResult["pages"] = {};
    const describe = (load: PageLoad) => ({
      jsGzip: sum(load.assets, ".js"),
      cssGzip: sum(load.assets, ".css"),
      files: load.assets.map(({ path, bytes, gzip }) => ({ path, bytes, gzip })),
    });
    pages.floor = describe(floorLoad);
    const figures: Figure[] = [
      figure(PART, "floor (bare React Router) JS+CSS gzip", "KB", [kb(floorBytes)], {
        note: `${floorLoad.assets.length} files`,
      }),
    ];

    // The markers must be in the build at all, or their absence on a page proves nothing.
    const assetDir = join(root, "build/client/assets");
    const built = readdirSync(assetDir).map((name) => readFileSync(join(assetDir, name), "utf8"));
    const markers = PRIVATE_CODE.filter((marker) => built.some((text) => text.includes(marker.text)));
    const missingMarkers = PRIVATE_CODE.filter((marker) => !markers.includes(marker)).map((m) => m.label);

    const found: string[] = [];
    for (const [label, path, locale] of [
      ["/", "/", "en-US"],
      ["/ in Japanese", "/", "ja-JP"],
      ["/events", "/events", "en-US"],
      ["/events in Japanese", "/events", "ja-JP"],
      ["/events/{id}", `/events/${eventId}`, "en-US"],
      ["/events/{id} in Japanese", `/events/${eventId}`, "ja-JP"],
      ["/apply", "/apply", "en-US"],
      ["/apply in Japanese", "/apply", "ja-JP"],
    ] as const) {
      const load = await loadPage(browser, `${site.url}${path}`, locale);
      pages[label] = describe(load);
      const bytes = sum(load.assets);
      const ratio = bytes / floorBytes;
      const detail = `JS ${kb(sum(load.assets, ".js")).toFixed(1)} + CSS ${kb(sum(load.assets, ".css")).toFixed(1)} KB, ${load.assets.length} files`;
      figures.push(figure(PART, `${label} JS+CSS gzip`, "KB", [kb(bytes)], { note: detail }));
      figures.push(figure(PART, `${label} ÷ floor`, "×", [ratio], { goal: PAGE_GOALS[path === "/" || path === "/events" || path === "/apply" ? path : "/events/{id}"] }));
      const adminFiles = load.manifest ? adminOnlyFiles(load.manifest) : new Set<string>();
      for (const asset of load.assets) {
        if (adminFiles.has(asset.path)) found.push(`${label}: admin-only file ${asset.path}`);
        for (const marker of markers) {
          if (asset.text.includes(marker.text)) found.push(`${label}: ${marker.label} in ${asset.path}`);
        }
      }
    }
    const checked = `checked ${markers.map((m) => m.label).join(", ")} and admin-only chunks`;
    const missing = missingMarkers.length ? `; not in the build, so not checked: ${missingMarkers.join(", ")}` : "";
    figures.push(
      figure(PART, "admin/editor/@dnd-kit files on public pages", "", [found.length], {
        goal: { op: "=", value: 0, text: "none" },
        note: found.length ? found.join("; ") : `${checked}${missing}`,
      }),
    );
    return { figures, pages };
  } finally {
    await floor.close();
    await browser.close();
  }
}
