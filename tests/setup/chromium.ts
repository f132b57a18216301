/** Debian's Chromium, as the end-to-end tests and the benchmark launch it. */

/** Playwright's own browser download cannot run on these machines; CHROMIUM_PATH may point elsewhere. */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

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
