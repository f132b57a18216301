/**
 * Accessibility: axe-core on every page and the states that matter, at a wide and a small
 * viewport (zero serious or critical violations), and the contrast of the text as it is drawn; the keyboard alone reaches every action with a
 * visible focus; dialogs trap and return focus; reduced motion stops animation and smooth scrolling.
 * The question list's keyboard reordering is exercised in sanctum-questions.spec.ts.
 */
import { expect, test as base, type Browser, type BrowserContext, type CDPSession, type Locator, type Page, type WorkerInfo } from "@playwright/test";
import { createAccount } from "./accounts";
import { expectNoSeriousViolations } from "./axe";
import { addStyles, expectReadableText, lowContrastText } from "./contrast";
import { hydrated } from "./hydrated";

const ADMIN = { email: "warden@dwell.example", password: "moonlight-warden", username: "Warden" };
const GATHERING = "The Gathering at the Threshold"; // open for applications
const OPEN_MIC = "Starlight Open Mic"; // no application
const VIEWPORTS = { wide: { width: 1366, height: 900 }, small: { width: 390, height: 844 } } as const;

type StorageState = Awaited<ReturnType<BrowserContext["storageState"]>>;

interface Site {
  gathering: string;
  openMic: string;
  gatheringId: string;
  /** The name on one event application and one group application, made for this worker. */
  applicant: string;
  /** The group application's private status page. */
  statusPath: string;
  adminState: StorageState;
}

async function signIn(page: Page) {
  await page.goto("/admin/sign-in");
  await page.getByLabel("Email").fill(ADMIN.email);
  await page.getByLabel("Password").fill(ADMIN.password);
  await page.getByRole("button", { name: "Enter Sanctum" }).click();
  await expect(page.getByText(`Welcome, ${ADMIN.username}`)).toBeVisible();
}

async function eventPath(page: Page, title: string) {
  await page.goto("/events");
  const link = page.getByRole("link", { name: new RegExp(title) }).first();
  return new URL((await link.getAttribute("href")) ?? "", page.url()).pathname;
}

/** A visitor's page and a signed-in admin's, each kept open for a whole matrix below. */
interface Readers {
  visitor: Page;
  admin: Page;
}

async function openReaders(browser: Browser, site: Site, use: WorkerInfo["project"]["use"]): Promise<Readers> {
  const { baseURL, locale, timezoneId, userAgent, deviceScaleFactor } = use;
  // Pages as most visitors see them, with motion (the suite's default is reduced motion), and under
  // the site's Content-Security-Policy: the checks lay their own styles as constructed stylesheets
  // (addStyles), which the policy does not govern.
  const options = { baseURL, locale, timezoneId, userAgent, deviceScaleFactor, reducedMotion: "no-preference" as const };
  const reader = async (storageState?: StorageState) => {
    const context = await browser.newContext({ ...options, storageState });
    await context.addInitScript(holdEndlessAnimations);
    return context.newPage();
  };
  return { visitor: await reader(), admin: await reader(site.adminState) };
}

/**
 * Runs in the readers' pages: each endless animation (the LIVE NOW pulse) is held where it stands
 * as it starts, and again when something restarts it. The checks read a page at rest: axe ignores
 * motion, and the contrast screenshots stop endless animations themselves. Left running, a pulse
 * has the page drawn again sixty times a second for the whole check (over this file alone, 174
 * core-seconds against 161; a traced run films every one of those frames). Entrances and transitions
 * play as most visitors see them, and the reduced-motion tests below read the pulse as it runs.
 */
function holdEndlessAnimations() {
  addEventListener(
    "animationstart",
    (event) => {
      for (const animation of (event.target as Element).getAnimations()) {
        if (animation.effect?.getComputedTiming().endTime === Infinity) animation.pause();
      }
    },
    true,
  );
}

/**
 * Between tests the readers wait on a blank page: a page left open keeps drawing its endless
 * animations (the LIVE NOW pulse) for nobody, on the cores the other tests need.
 */
async function leave({ visitor, admin }: Readers) {
  await Promise.all([visitor.goto("about:blank"), admin.goto("about:blank")]);
}

const test = base.extend<{ admin: Page; readers: Readers }, { site: Site; openReaders: Readers }>({
  // What the pages below need, once per worker: the demo events' addresses, applications to
  // review, and a signed-in admin session.
  site: [
    async ({ browser }, provide, workerInfo) => {
      createAccount(ADMIN.email, ADMIN.password, "admin", ADMIN.username);
      const context = await browser.newContext({ baseURL: workerInfo.project.use.baseURL });
      const page = await context.newPage();
      const gathering = await eventPath(page, GATHERING);
      const openMic = await eventPath(page, OPEN_MIC);
      const applicant = `Lumen${Date.now().toString(36)}${workerInfo.workerIndex}`;

      await page.goto(`${gathering}/apply`);
      await page.getByLabel("What is your VRChat username?").fill(applicant);
      await page.getByLabel("What is your Discord username?").fill(`${applicant}-discord`);
      await page.getByLabel("Why do you wish to attend?").fill("To listen to the lights.");
      await page.getByRole("button", { name: "Submit Application" }).click();
      await expect(page.getByRole("heading", { name: "Application Submitted" })).toBeVisible();

      await page.goto("/apply");
      await page.getByLabel("What is your VRChat username?").fill(applicant);
      await page.getByLabel("What is your Discord username?").fill(`${applicant}-discord`);
      await page.getByLabel("How did you find the Dwellers?").selectOption("A friend");
      await page.getByLabel("Tell us about yourself").fill("I keep the lanterns lit.");
      await page.getByRole("button", { name: "Complete the Ritual" }).click();
      await expect(page.getByRole("heading", { name: "The Ritual Is Complete" })).toBeVisible();
      const statusPath = (await page.getByRole("link", { name: "Check your application status" }).getAttribute("href")) ?? "";

      await signIn(page);
      const adminState = await context.storageState();
      await context.close();
      await provide({ gathering, openMic, gatheringId: gathering.split("/").at(-1) ?? "", applicant, statusPath, adminState });
    },
    { scope: "worker", timeout: 60_000 },
  ],
  // The matrices below only read pages, one after another: each reader goes from page to page in one
  // browser context, as a visitor does, rather than in a new context per page (a context and its
  // first page cost a new renderer and, on a first visit, the time zone's one reload: about half a
  // second each, on each of some 110 pages). Each page is still a fresh load at its test's size.
  openReaders: [async ({ browser, site }, provide, workerInfo) => provide(await openReaders(browser, site, workerInfo.project.use)), { scope: "worker" }],
  readers: async ({ openReaders }, provide) => {
    await provide(openReaders);
    await leave(openReaders);
  },
  admin: async ({ browser, site, viewport, baseURL }, provide) => {
    const context = await browser.newContext({ baseURL, viewport, storageState: site.adminState });
    await provide(await context.newPage());
    await context.close();
  },
});

// Pages as most visitors see them, with motion (the suite's default is reduced motion); the tests
// of the preference below ask for it themselves.
test.use({ reducedMotion: "no-preference" });

/**
 * Waits until the page has loaded (its pictures and styles), hydrated and drawn its fonts, so what
 * axe sees is what a visitor gets. Not "network idle": no page here fetches anything after that
 * which changes it, and the half second of quiet it waits for was a fifth of each check.
 */
async function settle(page: Page) {
  await page.waitForLoadState("load");
  await hydrated(page);
  await page.evaluate(async () => {
    await document.fonts.ready;
  });
}

interface Screen {
  name: string;
  path: (site: Site) => string;
  /** Brings the page into the state to check (a dialog open, errors shown). */
  open?: (page: Page, site: Site) => Promise<void>;
  viewports?: (keyof typeof VIEWPORTS)[];
  /** Walked with the keyboard as well, on the same load: every control reached by Tab, its focus seen. */
  walked?: true;
}

/** The end of a walked screen's title. */
const WALKED = ", and every control is reached by Tab and shows its focus";

const PUBLIC_SCREENS: Screen[] = [
  { name: "home", path: () => "/", walked: true },
  { name: "an application's status", path: (site) => site.statusPath },
  { name: "a status link that is not valid", path: () => `/applications/status/${"x".repeat(43)}` },
  {
    name: "home with the menu open",
    path: () => "/",
    viewports: ["small"],
    open: async (page) => {
      await page.getByRole("button", { name: "Open menu" }).click();
      await expect(page.locator("#site-menu")).toBeVisible();
    },
  },
  { name: "events", path: () => "/events", walked: true },
  { name: "an event with an application", path: (site) => site.gathering, walked: true },
  {
    name: "an event's application info",
    path: (site) => site.gathering,
    open: async (page) => {
      await page.getByRole("tab", { name: "Application Info" }).click();
      await expect(page.getByRole("tabpanel")).toContainText("Application Deadline");
    },
  },
  { name: "an event without an application", path: (site) => site.openMic, walked: true },
  { name: "the group application", path: () => "/apply", walked: true },
  {
    name: "the group application with an error",
    path: () => "/apply",
    open: async (page) => {
      await page.getByRole("button", { name: "Complete the Ritual" }).click();
      await expect(page.getByRole("alert").first()).toHaveText("Please answer: What is your VRChat username?");
    },
  },
  { name: "an event application", path: (site) => `${site.gathering}/apply`, walked: true },
  {
    name: "an event application with an error",
    path: (site) => `${site.gathering}/apply`,
    open: async (page) => {
      await page.getByLabel("What is your VRChat username?").fill("Someone");
      await page.getByRole("button", { name: "Submit Application" }).click();
      await expect(page.getByRole("alert").first()).toHaveText("Please answer: What is your Discord username?");
    },
  },
  { name: "the 404 page", path: () => "/no/such/page", walked: true },
  { name: "sign-in", path: () => "/admin/sign-in", walked: true },
  {
    name: "sign-in with an error",
    path: () => "/admin/sign-in",
    open: async (page) => {
      await page.getByRole("button", { name: "Forgot your cosmic passphrase?" }).click();
      await expect(page.getByRole("alert").filter({ hasText: /./ })).toBeVisible();
    },
  },
  { name: "forgotten passphrase", path: () => "/admin/forgot-password", walked: true },
  { name: "reset without a token", path: () => "/admin/reset-password" },
  { name: "reset with a token", path: () => "/admin/reset-password?token=a-token-from-an-email", walked: true },
];

async function openApplication(page: Page) {
  const card = page.getByRole("list", { name: "Applications" }).getByRole("listitem").first();
  await card.getByText("Show responses").click();
  await expect(card.getByText("Application Responses")).toBeVisible();
}

const ADMIN_SCREENS: Screen[] = [
  { name: "the dashboard", path: () => "/admin", walked: true },
  { name: "events", path: () => "/admin/events", walked: true },
  { name: "the new event editor", path: () => "/admin/events?new", walked: true },
  {
    name: "the new event editor with an error",
    path: () => "/admin/events?new",
    open: async (page) => {
      await page.getByLabel("Requires Application").check();
      await page.getByRole("button", { name: "Create Prophecy" }).click();
      await expect(page.getByRole("alert").filter({ hasText: /./ })).toHaveText("Title is required");
    },
  },
  { name: "an event's editor", path: (site) => `/admin/events?edit=${site.gatheringId}`, walked: true },
  {
    name: "the delete event confirmation",
    path: () => "/admin/events",
    open: async (page) => {
      await page.getByRole("button", { name: `Delete ${GATHERING}` }).click();
      await expect(page.getByRole("alertdialog")).toBeVisible();
    },
  },
  { name: "the group's questions", path: () => "/admin/questions", walked: true },
  { name: "decision messages", path: () => "/admin/messages" },
  { name: "an event's decision messages", path: (site) => `/admin/events/${site.gatheringId}/messages` },
  { name: "an event's questions", path: (site) => `/admin/events/${site.gatheringId}/questions`, walked: true },
  {
    name: "a question being edited",
    path: (site) => `/admin/events/${site.gatheringId}/questions`,
    open: async (page) => {
      await page.getByRole("button", { name: /^Edit: / }).first().click();
      await expect(page.getByRole("button", { name: "Save" })).toBeVisible();
    },
  },
  {
    name: "the delete question confirmation",
    path: (site) => `/admin/events/${site.gatheringId}/questions`,
    open: async (page) => {
      await page.getByRole("button", { name: /^Delete: / }).first().click();
      await expect(page.getByRole("alertdialog")).toBeVisible();
    },
  },
  { name: "group applications", path: () => "/admin/applications" },
  { name: "screening rules", path: () => "/admin/screening" },
  { name: "a group application opened", path: (site) => `/admin/applications?q=${site.applicant}`, open: openApplication },
  { name: "event applications", path: (site) => `/admin/events/${site.gatheringId}/applications` },
  {
    name: "an event application opened",
    path: (site) => `/admin/events/${site.gatheringId}/applications?q=${site.applicant}`,
    open: openApplication,
  },
  {
    name: "event applications filtered to nothing",
    path: (site) => `/admin/events/${site.gatheringId}/applications?q=nobody-by-this-name`,
  },
  {
    name: "the bulk decision confirmation",
    path: (site) => `/admin/events/${site.gatheringId}/applications`,
    open: async (page) => {
      await page.getByLabel("Select all on this page").check();
      await page.getByRole("button", { name: "Reject selected" }).click();
      await expect(page.getByRole("alertdialog")).toBeVisible();
    },
  },
];

// axe judges contrast from CSS; expectReadableText measures it as drawn, over the gradients and
// translucent panels that axe can only mark "needs review". The pages a keyboard walk reads are walked
// last, on the same load: axe and the contrast measurement leave the page as they found it (scrolled
// back, their styles gone, the focus untouched), and the walk starts from no focus.
test.describe("axe finds no serious or critical violations, and text keeps its contrast as drawn", () => {
  // Measuring every text run as drawn takes a while on a long page and a busy machine.
  test.describe.configure({ timeout: 60_000 });
  for (const [size, viewport] of Object.entries(VIEWPORTS) as [keyof typeof VIEWPORTS, (typeof VIEWPORTS)[keyof typeof VIEWPORTS]][]) {
    test.describe(size, () => {
      // The visitor's pages, then the Sanctum's in the signed-in admin's reader.
      const readerScreens = [
        { reader: "visitor", screens: PUBLIC_SCREENS, title: "", what: "" },
        { reader: "admin", screens: ADMIN_SCREENS, title: "Sanctum: ", what: "the Sanctum's " },
      ] as const;
      for (const { reader, screens, title, what: whose } of readerScreens) {
        for (const screen of screens.filter((s) => !s.viewports || s.viewports.includes(size))) {
          test(`${title}${screen.name}${screen.walked ? WALKED : ""}`, async ({ readers, site }) => {
            const page = readers[reader];
            const what = `${whose}${screen.name} (${size})`;
            await page.setViewportSize(viewport);
            await page.goto(screen.path(site));
            await settle(page);
            await screen.open?.(page, site);
            await expectNoSeriousViolations(page, what, { contrastMeasured: true });
            await expectReadableText(page, what);
            if (screen.walked) await expectKeyboardReachable(page, what);
          });
        }
      }
    });
  }
});

test.describe("the contrast measurement", () => {
  test("finds text drawn too faintly over the page's backgrounds, on every screenful, with endless animations still", async ({ readers: { visitor: page } }) => {
    await page.setViewportSize(VIEWPORTS.small);
    await page.goto("/");
    await settle(page);
    // The heading at the top, and the footer's text several screenfuls down, in the colour of what
    // lies behind them, almost.
    await addStyles(
      page,
      "main h1, main h1 * { color: rgb(40 30 60) !important; } footer p { color: rgb(60 50 80 / 0.9) !important; }" +
        // Words whose endless animation holds them just as faint: measured as without it (as drawn
        // still), they keep their own colour.
        " @keyframes faint { from, to { color: rgb(40 30 60); } } .endlessly-faint { animation: faint 1s infinite; }" +
        // White over pure red: 4.00:1 exactly as WCAG counts it, so the screenful's pixels are read
        // as drawn, each channel in its place (over blue, which red read as blue would be, 8.59:1).
        " .white-on-red { background: rgb(255 0 0); color: rgb(255 255 255) !important; }",
    );
    await page.locator("main").evaluate((main) => {
      main.prepend(Object.assign(document.createElement("p"), { className: "endlessly-faint", textContent: "Pulsing words" }));
      main.prepend(Object.assign(document.createElement("p"), { className: "white-on-red", textContent: "White on red" }));
    });
    // And the page grows once it is scrolled, as the home page once did in CI.
    await page.evaluate(() =>
      addEventListener(
        "scroll",
        () => document.querySelector("footer")!.before(Object.assign(document.createElement("div"), { style: "height: 3000px" })),
        { once: true },
      ),
    );
    const pulses = () => page.locator(".endlessly-faint").evaluate((words) => words.getAnimations().map((animation) => animation.playState));
    // The readers' pages hold an endless animation as it starts, a frame after the words are added.
    await expect.poll(pulses).toEqual(["paused"]);
    const failures = await lowContrastText(page);
    expect(failures).toEqual(expect.arrayContaining([expect.stringMatching(/^"Dwellers": /), expect.stringMatching(/^"DWELL": /), '"White on red": 4.00:1, needs 4.5:1']));
    expect(failures).not.toContainEqual(expect.stringMatching(/^"Pulsing words": /));
    // And the pulse is as it was afterwards: played again (a pulse left cancelled would be "idle"),
    // and so held again where it stands as it restarts (the restart's event comes a frame later).
    await expect.poll(pulses).toEqual(["paused"]);
  });
});

/** Presses Tab (or `key`) until `target` has focus; fails if it is not reached within `limit` presses. */
async function tabTo(page: Page, target: Locator, limit = 60, key = "Tab") {
  for (let i = 0; i < limit; i++) {
    if (await target.evaluate((el) => el === document.activeElement)) return;
    await page.keyboard.press(key);
  }
  await expect(target).toBeFocused();
}

interface TabStop {
  element: string;
  focused: string;
  unfocused: string;
  /** Whether the focused control draws an outline or a shadow (a ring) that can be seen. */
  drawn: boolean;
}

/** Focused controls that show nothing, or nothing that differs from how they look unfocused. */
function withoutVisibleFocus(stops: TabStop[]) {
  return stops.filter((stop) => stop.focused === stop.unfocused || !stop.drawn);
}

/** What a walk keeps in the page (window.a11yWalk) while the focus moves. */
interface InPageWalk {
  controls: Element[];
  stops: TabStop[];
  visited: Set<Element>;
  last: Element | null;
  ended: boolean;
}

/** Tab presses sent together before the walk looks at where they led. */
const TABS_AT_ONCE = 10;

/**
 * Presses Tab `count` times as the keyboard does (what `page.keyboard.press("Tab")` sends), the
 * presses sent one after another without waiting for each to be answered: the page handles them in
 * order, as it would a person's quick presses. One press at a time, each then looked at, was three
 * round trips to the browser per stop.
 */
async function pressTabs(cdp: CDPSession, count: number) {
  const key = { key: "Tab", code: "Tab", windowsVirtualKeyCode: 9, nativeVirtualKeyCode: 9 };
  await Promise.all(
    Array.from({ length: count }, () => [
      cdp.send("Input.dispatchKeyEvent", { type: "rawKeyDown", ...key }),
      cdp.send("Input.dispatchKeyEvent", { type: "keyUp", ...key }),
    ]).flat(),
  );
}

/**
 * Tabs through the whole page from the top and returns each stop with its focus indicator
 * (outline and box-shadow) as it is focused and as it was before, and every visible control
 * that was never reached. Each stop is read in the page as the focus arrives, its transitions
 * run to their end first, so the indicator read is the one that stays.
 */
async function walkTabOrder(page: Page) {
  await page.evaluate(() => {
    const indicator = (el: Element) => {
      const style = getComputedStyle(el);
      return `outline: ${style.outlineStyle} ${style.outlineWidth} ${style.outlineColor}; box-shadow: ${style.boxShadow}`;
    };
    (document.activeElement as HTMLElement | null)?.blur();
    const controls = [
      ...document.querySelectorAll("a[href], button, input, select, textarea, summary, [tabindex]"),
    ].filter(
      (el) =>
        el.getAttribute("tabindex") !== "-1" &&
        !(el as HTMLButtonElement).disabled &&
        !(el instanceof HTMLInputElement && el.type === "hidden") &&
        el.checkVisibility({ visibilityProperty: true }) &&
        // Radix mirrors a switch in a hidden native input for form posts.
        el.getAttribute("aria-hidden") !== "true",
    );
    const unfocused = new Map(controls.map((el) => [el, indicator(el)]));
    const walk: InPageWalk = { controls, stops: [], visited: new Set(), last: null, ended: false };
    Object.assign(window, { a11yWalk: walk });
    addEventListener(
      "focusin",
      (event) => {
        const el = event.target;
        // Tab also steps through the parts of one control (a date input's month, day and year).
        if (walk.ended || !(el instanceof Element) || el === walk.last) return;
        // Back at a control already reached: the walk has gone round the page.
        if (walk.visited.has(el)) {
          walk.ended = true;
          return;
        }
        walk.visited.add(el);
        walk.last = el;
        // Asking for its animations brings its style up to date, which starts the transitions the
        // focus sets off; they are run to their end.
        for (const animation of el.getAnimations()) if (animation instanceof CSSTransition) animation.finish();
        const style = getComputedStyle(el);
        const name = el.getAttribute("aria-label") ?? (el.textContent ?? "").trim().slice(0, 40);
        const outline =
          style.outlineStyle !== "none" && parseFloat(style.outlineWidth) > 0 && !/^rgba\(.*, 0\)$|transparent/.test(style.outlineColor);
        walk.stops.push({
          element: `${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ""} "${name}"`,
          focused: indicator(el),
          unfocused: unfocused.get(el) ?? "(not listed as a control)",
          drawn: outline || style.boxShadow !== "none",
        });
      },
      true,
    );
  });
  const cdp = await page.context().newCDPSession(page);
  // The walk ends back at a control it reached, or with the focus gone from the page's controls.
  for (let pressed = 0; pressed < 400; pressed += TABS_AT_ONCE) {
    await pressTabs(cdp, TABS_AT_ONCE);
    const ended = await page.evaluate(() => {
      const { a11yWalk: walk } = window as unknown as { a11yWalk: InPageWalk };
      return walk.ended || !document.activeElement || document.activeElement === document.body;
    });
    if (ended) break;
  }
  await cdp.detach();
  return page.evaluate(() => {
    const { a11yWalk: walk } = window as unknown as { a11yWalk: InPageWalk };
    walk.ended = true;
    const visited = [...walk.visited];
    // A roving-focus group (tabs, a calendar grid) is focusable itself and passes the focus on to its item.
    const missed = walk.controls
      .filter((el) => !visited.some((stop) => el === stop || el.contains(stop)))
      .map((el) => `${el.tagName.toLowerCase()} "${el.getAttribute("aria-label") ?? (el.textContent ?? "").trim().slice(0, 40)}"`);
    return { stops: walk.stops, missed };
  });
}

/** Walks a settled page with the keyboard: every control reached, each focus seen. */
async function expectKeyboardReachable(page: Page, what: string) {
  const { stops, missed } = await walkTabOrder(page);
  expect(stops.length, `no focus stops on ${what}`).toBeGreaterThan(0);
  expect(missed, `controls the keyboard never reached on ${what}`).toEqual([]);
  expect(withoutVisibleFocus(stops), `focused controls without a visible focus indicator on ${what}`).toEqual([]);
}

/**
 * Pages walked with the keyboard in a test of their own: the other walked pages are walked where their
 * axe and contrast checks load them (the screens marked `walked` above). These two lists show this
 * worker's applicant alone, with the controls of one card.
 */
const SANCTUM_TAB_PAGES: [string, (site: Site) => string][] = [
  ["group applications", (site) => `/admin/applications?q=${site.applicant}`],
  ["event applications", (site) => `/admin/events/${site.gatheringId}/applications?q=${site.applicant}`],
];

test.describe("keyboard", () => {
  test("the walk finds a focus nobody can see and a control the keyboard never reaches, and reads a slow ring as it ends", async ({
    readers: { visitor: page },
  }) => {
    await page.setViewportSize(VIEWPORTS.wide);
    await page.goto("/");
    await settle(page);
    await addStyles(
      page,
      "#walk-faint:focus-visible { outline: none !important; box-shadow: none !important; }" +
        "#walk-slow { transition: box-shadow 30s linear !important; }" +
        "#walk-slow:focus-visible { outline: none !important; box-shadow: 0 0 0 3px rgb(255 200 0) !important; }",
    );
    await page.evaluate(() => {
      const link = (id: string, text: string) => Object.assign(document.createElement("a"), { id, href: `/${id}`, textContent: text });
      const unreachable = link("walk-inert", "Out of reach");
      unreachable.inert = true;
      document.querySelector("main")!.append(link("walk-faint", "Faint"), link("walk-slow", "Slow"), unreachable);
    });
    const { stops, missed } = await walkTabOrder(page);
    expect(missed).toEqual(['a "Out of reach"']);
    expect(withoutVisibleFocus(stops).map((stop) => stop.element)).toEqual(['a#walk-faint "Faint"']);
    expect(stops.find((stop) => stop.element.startsWith("a#walk-slow"))?.focused).toContain("box-shadow: rgb(255, 200, 0) 0px 0px 0px 3px");
  });

  test("the skip link leads to the content, and the menu works from the keyboard on a small screen", async ({ page }) => {
    await page.setViewportSize(VIEWPORTS.small);
    await page.goto("/");
    await settle(page);
    await page.keyboard.press("Tab");
    const skip = page.getByRole("link", { name: "Skip to content" });
    await expect(skip).toBeFocused();
    expect((await skip.boundingBox())?.width ?? 0).toBeGreaterThan(40);
    await page.keyboard.press("Enter");
    await page.keyboard.press("Tab");
    expect(await page.evaluate(() => document.querySelector("main")?.contains(document.activeElement))).toBe(true);

    const toggle = page.getByRole("button", { name: "Open menu" });
    await page.keyboard.press("Shift+Tab");
    await tabTo(page, toggle);
    await page.keyboard.press("Enter");
    await expect(page.locator("#site-menu")).toBeVisible();
    await expect(page.getByRole("button", { name: "Close menu" })).toHaveAttribute("aria-expanded", "true");
    await tabTo(page, page.locator("#site-menu").getByRole("link", { name: "The Prophecies" }), 5);
    await page.keyboard.press("Enter");
    await expect(page).toHaveURL(/\/events$/);
    await expect(page.locator("#site-menu")).toBeHidden();
  });

  test("LIVE NOW takes the keyboard to the statistics", async ({ page }) => {
    await page.goto("/events");
    await settle(page);
    await tabTo(page, page.getByRole("banner").getByRole("link", { name: /LIVE NOW/ }));
    await page.keyboard.press("Enter");
    const stats = page.locator("#vrchat-stats");
    await expect(stats).toBeFocused();
    await expect(stats.getByRole("heading", { name: /PLAYERS IN VR/ })).toBeInViewport();
    await page.keyboard.press("Tab");
    expect(await stats.evaluate((section) => section.contains(document.activeElement))).toBe(true);
  });

  test("a visitor finds an event and applies with the keyboard alone", async ({ page }) => {
    const name = `Ember${Date.now().toString(36)}`;
    await page.goto("/");
    await settle(page);
    await tabTo(page, page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "The Prophecies" }));
    await page.keyboard.press("Enter");
    await expect(page.getByRole("heading", { level: 1, name: "The Prophecies" })).toBeVisible();
    await tabTo(page, page.getByRole("link", { name: new RegExp(GATHERING) }).first());
    await page.keyboard.press("Enter");
    await expect(page.getByRole("heading", { level: 1, name: GATHERING })).toBeVisible();
    await tabTo(page, page.getByRole("link", { name: "Apply Now" }));
    await page.keyboard.press("Enter");
    await expect(page.getByRole("heading", { level: 1, name: `Apply for ${GATHERING}` })).toBeVisible();

    const submit = page.getByRole("button", { name: "Submit Application" });
    // Enter on the button first: the form names the missing answer and puts the focus on it.
    await tabTo(page, submit);
    await page.keyboard.press("Enter");
    await expect(page.getByLabel("What is your VRChat username?")).toBeFocused();
    await page.keyboard.type(name);
    await tabTo(page, page.getByLabel("What is your Discord username?"), 3);
    await page.keyboard.type(`${name}-discord`);
    await tabTo(page, page.getByLabel("Why do you wish to attend?"), 3);
    await page.keyboard.type("I came by keyboard.");
    await tabTo(page, page.getByLabel("Which part calls to you?"), 3);
    await page.keyboard.press("ArrowDown");
    await expect(page.getByLabel("Which part calls to you?")).toHaveValue("Listener");
    await tabTo(page, submit, 5);
    await page.keyboard.press("Enter");
    await expect(page.getByRole("heading", { name: "Application Submitted" })).toBeVisible();
  });

  for (const [size, viewport] of Object.entries(VIEWPORTS)) {
    test.describe(size, () => {
      for (const [name, path] of SANCTUM_TAB_PAGES) {
        test(`every control on the Sanctum's ${name} is reached by Tab and shows its focus`, async ({ readers: { admin }, site }) => {
          await admin.setViewportSize(viewport);
          await admin.goto(path(site));
          await settle(admin);
          await expectKeyboardReachable(admin, name);
        });
      }
    });
  }

  test("applications are opened and decided from the keyboard, and the focus stays put", async ({ admin, site }) => {
    await admin.goto(`/admin/events/${site.gatheringId}/applications?q=${site.applicant}`);
    await settle(admin);
    let card = admin.getByRole("list", { name: "Applications" }).getByRole("listitem").first();
    await tabTo(admin, card.locator("summary"));
    await admin.keyboard.press("Enter");
    await expect(card.getByText("Application Responses")).toBeVisible();
    await tabTo(admin, card.getByLabel("Admin Notes"), 10);
    await admin.keyboard.type("Met at the threshold.");
    // Leaving the notes saves them; the buttons wait for that without losing the focus.
    const approve = card.getByRole("button", { name: "Approved" });
    await tabTo(admin, approve, 5, "Shift+Tab");
    await expect(card.getByText(`${ADMIN.username}: notes updated`)).toBeVisible();
    await expect(approve).not.toHaveAttribute("aria-disabled");
    await expect(approve).toBeFocused();
    await admin.keyboard.press("Enter");
    await expect(approve).toHaveAttribute("aria-pressed", "true");
    await expect(card.getByText(`${ADMIN.username}: status pending → approved`)).toBeVisible();
    await expect(approve).toBeFocused();

    await admin.goto(`/admin/applications?q=${site.applicant}`);
    await settle(admin);
    card = admin.getByRole("list", { name: "Applications" }).getByRole("listitem").first();
    await tabTo(admin, card.locator("summary"));
    await admin.keyboard.press("Enter");
    await expect(card.getByText("Application Responses")).toBeVisible();
    // A group application's decisions are in its header, before its responses.
    await tabTo(admin, card.getByRole("button", { name: "Approve" }), 10, "Shift+Tab");
    await admin.keyboard.press("Enter");
    await expect(card.getByRole("button", { name: "Approve" })).toHaveCount(0);
    // The decision's buttons are gone; the focus is on the card's toggle, and the card says Approved.
    await expect(card.locator("summary")).toBeFocused();
    await expect(card.getByText("Approved", { exact: true })).toBeVisible();
  });

  test("the confirmation dialogs trap the focus and give it back to their button", async ({ admin, site }) => {
    const openers = [
      { path: "/admin/events", opener: admin.getByRole("button", { name: `Delete ${GATHERING}` }) },
      { path: `/admin/events/${site.gatheringId}/questions`, opener: admin.getByRole("button", { name: /^Delete: / }).first() },
    ];
    for (const { path, opener } of openers) {
      await admin.goto(path);
      await settle(admin);
      const dialog = admin.getByRole("alertdialog");
      const focusInDialog = () => dialog.evaluate((el) => el.contains(document.activeElement));

      await tabTo(admin, opener);
      await admin.keyboard.press("Enter");
      await expect(dialog).toBeVisible();
      expect(await focusInDialog()).toBe(true);
      for (const key of ["Tab", "Tab", "Tab", "Shift+Tab", "Shift+Tab", "Shift+Tab", "Shift+Tab"]) {
        await admin.keyboard.press(key);
        expect(await focusInDialog(), `focus left the dialog after ${key}`).toBe(true);
      }
      await admin.keyboard.press("Escape");
      await expect(dialog).toBeHidden();
      await expect(opener).toBeFocused();

      // Closing with its Cancel button gives the focus back too.
      await admin.keyboard.press("Space");
      await expect(dialog).toBeVisible();
      await expect(dialog.getByRole("button", { name: "Cancel" })).toBeFocused();
      await admin.keyboard.press("Enter");
      await expect(dialog).toBeHidden();
      await expect(opener).toBeFocused();
    }
  });

  test("the question order's drag handles are buttons that explain their keyboard use", async ({ admin }) => {
    // The reorder itself (Space, arrows, Enter) is in sanctum-questions.spec.ts.
    await admin.goto("/admin/questions");
    await settle(admin);
    const handle = admin.getByRole("button", { name: /^Reorder: / }).first();
    await tabTo(admin, handle);
    await expect(handle).toHaveAttribute("aria-roledescription", "sortable");
    await expect(handle).toHaveAccessibleDescription(/space bar/i);
  });
});

const runningAnimations = (page: Page) =>
  page.evaluate(() =>
    document
      .getAnimations()
      .filter((animation) => animation.playState === "running")
      .map((animation) => {
        const target = (animation.effect as KeyframeEffect | null)?.target;
        const name = "animationName" in animation ? animation.animationName : "transitionProperty" in animation ? animation.transitionProperty : "script";
        return `${String(name)} on ${target?.tagName.toLowerCase() ?? "?"}.${target?.getAttribute("class") ?? ""}`;
      }),
  );

/** Records how the page asks to scroll, so the test can tell smooth from instant. */
async function recordScrolls(page: Page) {
  await page.addInitScript(() => {
    const calls: string[] = [];
    Object.assign(window, { a11yScrolls: calls });
    const original = Element.prototype.scrollIntoView;
    Element.prototype.scrollIntoView = function (options?: boolean | ScrollIntoViewOptions) {
      calls.push(typeof options === "object" ? (options.behavior ?? "auto") : "auto");
      original.call(this, options);
    };
  });
}

const recordedScrolls = (page: Page) => page.evaluate(() => (window as unknown as { a11yScrolls: string[] }).a11yScrolls);

test.describe("reduced motion", () => {
  test("without the preference the LIVE NOW dot pulses and the scroll is smooth", async ({ page }) => {
    await recordScrolls(page);
    await page.goto("/events");
    const live = page.getByRole("banner").getByRole("link", { name: /LIVE NOW/ });
    await expect(live.locator(".animate-ping")).toHaveCSS("animation-name", "ping");
    await settle(page);
    await live.click();
    await expect(page.locator("#vrchat-stats").getByRole("heading", { name: /PLAYERS IN VR/ })).toBeInViewport();
    expect(await recordedScrolls(page)).toEqual(["smooth"]);
  });

  test.describe("with the preference", () => {
    test.beforeEach(async ({ page }) => {
      await page.emulateMedia({ reducedMotion: "reduce" });
    });

    test("the LIVE NOW dots stand still and nothing else moves", async ({ page }) => {
      await page.goto("/events");
      const live = page.getByRole("banner").getByRole("link", { name: /LIVE NOW/ });
      await expect(live.locator(".animate-ping")).toHaveCSS("animation-name", "none");
      await page.goto("/");
      await settle(page);
      for (const dot of await page.locator(".animate-ping").all()) await expect(dot).toHaveCSS("animation-name", "none");
      await expect.poll(() => runningAnimations(page)).toEqual([]);
    });

    test("LIVE NOW jumps to the statistics instead of scrolling smoothly", async ({ page }) => {
      await recordScrolls(page);
      await page.goto("/events");
      await settle(page);
      await page.getByRole("banner").getByRole("link", { name: /LIVE NOW/ }).click();
      const heading = page.locator("#vrchat-stats").getByRole("heading", { name: /PLAYERS IN VR/ });
      await expect(heading).toBeInViewport();
      // Already on the home page: the same link scrolls there again, from the top.
      await page.evaluate(() => window.scrollTo(0, 0));
      await page.getByRole("banner").getByRole("link", { name: /LIVE NOW/ }).click();
      await expect(heading).toBeInViewport();
      expect(await recordedScrolls(page)).toEqual(["auto", "auto"]);
      await expect(page.locator("html")).toHaveCSS("scroll-behavior", "auto");
    });

    test("the loading skeleton and spinner stand still", async ({ page }) => {
      await page.goto("/events");
      await settle(page);
      // Hold the next page's data back so its loading state shows.
      const held: (() => void)[] = [];
      const release = () => held.splice(0).forEach((resume) => resume());
      await page.route(/\.data(\?|$)/, async (route) => {
        await new Promise<void>((resume) => held.push(resume));
        await route.continue();
      });
      await page.getByRole("link", { name: new RegExp(OPEN_MIC) }).first().click();
      const skeleton = page.locator("main .animate-pulse").first();
      await expect(skeleton).toBeVisible();
      await expect(skeleton).toHaveCSS("animation-name", "none");
      await expect.poll(() => runningAnimations(page)).toEqual([]);
      release();
      await expect(page.getByRole("heading", { level: 1, name: OPEN_MIC })).toBeVisible();

      await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "The Calling" }).click();
      await expect(page.getByRole("status").filter({ hasText: "Loading events..." })).toBeVisible();
      await expect.poll(() => runningAnimations(page)).toEqual([]);
      release();
      await expect(page.getByRole("heading", { level: 1 })).toContainText("Dwellers");
    });

    test("dialogs and notices appear without motion", async ({ page, admin, site }) => {
      await page.goto("/apply");
      await settle(page);
      await page.getByRole("button", { name: "Complete the Ritual" }).click();
      await expect(page.locator("[data-sonner-toast]").first()).toBeVisible();
      await expect.poll(() => runningAnimations(page)).toEqual([]);

      await admin.emulateMedia({ reducedMotion: "reduce" });
      await admin.goto(`/admin/events/${site.gatheringId}/questions`);
      await settle(admin);
      await admin.getByRole("button", { name: /^Delete: / }).first().click();
      await expect(admin.getByRole("alertdialog")).toBeVisible();
      await expect.poll(() => runningAnimations(admin)).toEqual([]);
    });
  });
});
