import type { Locator, Page } from "@playwright/test";

/** Waits until the page runs its JavaScript (the root marks <html> once hydrated). */
export async function hydrated(page: Page) {
  await page.locator("html[data-hydrated]").waitFor({ state: "attached" });
}

/**
 * Follows a link, then waits until the page it leads to runs its JavaScript. The mark alone is not
 * enough after a click: a link clicked before its page had hydrated is followed by the browser itself,
 * and on a busy machine the page being left can mark itself hydrated before the next one arrives, whose
 * buttons would not answer yet (seen: a decision clicked in a card that had opened, without a word).
 */
export async function followLink(link: Locator) {
  const page = link.page();
  const target = new URL((await link.getAttribute("href")) ?? "", page.url());
  await link.click();
  await page.waitForURL((url) => url.pathname === target.pathname);
  await hydrated(page);
}
