import { expect, type Locator, type Page } from "@playwright/test";

/**
 * Lifts a question by its reorder handle with the keyboard and moves it up over the questions
 * above it, as a keyboard user would; the drop (Enter) is the caller's, once it waits for the save.
 * dnd-kit announces each step in its live region, as a screen reader user would hear it: the steps
 * wait on those words, so that a key dnd-kit took late (still measuring, on a busy machine), or a
 * press lost to a page still settling, cannot leave the question where it was (a drop there sends
 * nothing). Extra presses at the top change nothing.
 */
export async function liftAndMoveUp(page: Page, handle: Locator, presses: number) {
  await page.waitForLoadState("networkidle");
  const live = page.locator('[id^="DndLiveRegion"]');
  await handle.focus();
  await page.keyboard.press("Space");
  await expect(handle).toHaveAttribute("aria-pressed", "true");
  await expect(live).toContainText("Draggable item");
  for (let i = 0; i < presses; i++) {
    await page.keyboard.press("ArrowUp");
    await page.waitForTimeout(250);
  }
  // Over another question than its own place.
  await expect(live).toContainText(/Draggable item (\S+) was moved over droppable area (?!\1\.)\S+\./);
}
