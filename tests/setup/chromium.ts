/** Debian's Chromium, as the end-to-end tests and the benchmark launch it. */
import { existsSync } from "node:fs";

/**
 * The whole browser, Debian's `chromium`: what the benchmark measures pages in (Lighthouse needs it).
 * Playwright's own browser download cannot run on these machines; CHROMIUM_PATH may point elsewhere.
 */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

/** Debian's `chromium-headless-shell`: the same Chromium (engine, version and flags), built for headless use alone. */
const HEADLESS_SHELL_PATH = "/usr/bin/chromium-headless-shell";

/**
 * The browser the end-to-end tests drive: the headless shell when it is installed, else the whole
 * browser; CHROMIUM_PATH, when set, is used as it is. Within `npm test` on two cores the browser suite
 * took 671 s with the shell and 890 s with the whole browser: the shell has no desktop browser's
 * machinery behind each page (decision 030).
 */
export const TEST_CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? (existsSync(HEADLESS_SHELL_PATH) ? HEADLESS_SHELL_PATH : CHROMIUM_PATH);

/** Flags that let Chromium run as root on a machine without outside network. */
export const CHROMIUM_FLAGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

/**
 * The end-to-end tests' browser composites its frames in software, in the browser's own memory, rather
 * than through an emulated GPU: on 19 accessibility checks Chromium spent 63-69 core-seconds with it against
 * 66-74 without (decision 030), and what a page draws is the same. The benchmark keeps the flags above.
 */
export const TEST_CHROMIUM_FLAGS = [...CHROMIUM_FLAGS, "--disable-gpu-compositing"];
