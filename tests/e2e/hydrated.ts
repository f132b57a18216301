import type { Page } from "@playwright/test";

/** Waits until the page runs its JavaScript (the root marks <html> once hydrated). */
export async function hydrated(page: Page) {
  await page.locator("html[data-hydrated]").waitFor({ state: "attached" });
}
