/**
 * Text contrast as drawn. axe reads colours from CSS, so over gradients, blurred panels and
 * translucent layers it can only say "needs review". Here each screenful of the page is looked at
 * twice: once to find each run of text (its box, its colour, the opacity of everything around
 * it), once with all text made transparent, so the screenshot holds exactly what lies behind it. Every sampled
 * pixel behind a text box must keep WCAG's 4.5:1 (3:1 for large text) against the text's colour
 * laid over it.
 */
import { createCanvas, loadImage } from "@napi-rs/canvas";
import { expect, type CDPSession, type Page } from "@playwright/test";

/**
 * Lays styles of the measurement's own over the page's, as a stylesheet built by a script: the site's
 * Content-Security-Policy refuses a `<style>` element without its nonce (Playwright's `addStyleTag`),
 * and governs no stylesheet a script constructs, so each page is measured as it is served. Returns
 * what takes them away again.
 */
export async function addStyles(page: Page, css: string): Promise<() => Promise<void>> {
  const sheet = await page.evaluateHandle((text) => {
    const own = new CSSStyleSheet();
    own.replaceSync(text);
    document.adoptedStyleSheets = [...document.adoptedStyleSheets, own];
    return own;
  }, css);
  return async () => {
    await sheet.evaluate((own) => {
      document.adoptedStyleSheets = document.adoptedStyleSheets.filter((other) => other !== own);
    });
    await sheet.dispose();
  };
}

interface TextRun {
  text: string;
  box: { x: number; y: number; width: number; height: number };
  /** sRGB, 0–255, and the alpha of the colour times the opacity of the element and its ancestors. */
  rgb: [number, number, number];
  alpha: number;
  /** The opacity of the element and its ancestors (part of `alpha`). */
  opacity: number;
  large: boolean;
}

async function textRuns(page: Page): Promise<TextRun[]> {
  return page.evaluate(() => {
    const probe = document.createElement("canvas").getContext("2d", { willReadFrequently: true })!;
    const runs: TextRun[] = [];
    const seen = new Set<Element>();
    // The opacity of an element and all its ancestors, each element's read once.
    const opacities = new Map<Element, number>();
    const opacityOf = (element: Element): number => {
      const known = opacities.get(element);
      if (known !== undefined) return known;
      const own = Number(getComputedStyle(element).opacity);
      const value = element.parentElement ? own * opacityOf(element.parentElement) : own;
      opacities.set(element, value);
      return value;
    };
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const element = node.parentElement;
      if (!node.textContent?.trim() || !element || seen.has(element)) continue;
      seen.add(element);
      // Where the text is first (the cheapest question, and most of a long page is off screen):
      // measured where it is wholly on screen, and only where nothing (a sticky header, a dialog's
      // overlay) covers it.
      const range = document.createRange();
      range.selectNodeContents(node);
      const rect = range.getBoundingClientRect();
      if (rect.width < 2 || rect.height < 2) continue;
      if (rect.top < 0 || rect.left < 0 || rect.bottom > innerHeight || rect.right > innerWidth) continue;
      if (!element.checkVisibility({ visibilityProperty: true, opacityProperty: true })) continue;
      // WCAG exempts disabled controls, and text nobody sees.
      if (element.closest("[disabled], [aria-disabled='true'], .sr-only, [aria-hidden='true']")) continue;
      // Its middle and the middles of its edges: a run half under the sticky header is measured on
      // the screenful where it is wholly in view, not here.
      const [midX, midY] = [rect.left + rect.width / 2, rect.top + rect.height / 2];
      const points = [[midX, midY], [midX, rect.top + 1], [midX, rect.bottom - 1], [rect.left + 1, midY], [rect.right - 1, midY]] as const;
      const uncovered = points.every(([x, y]) => {
        const onTop = document.elementFromPoint(x, y);
        return onTop !== null && (element.contains(onTop) || onTop.contains(element));
      });
      if (!uncovered) continue;
      const style = getComputedStyle(element);
      // The canvas turns any CSS colour (oklch, color-mix…) into sRGB.
      probe.clearRect(0, 0, 1, 1);
      probe.fillStyle = style.color;
      probe.fillRect(0, 0, 1, 1);
      const [r, g, b, a] = probe.getImageData(0, 0, 1, 1).data;
      const opacity = opacityOf(element);
      const size = parseFloat(style.fontSize);
      runs.push({
        text: node.textContent.trim().slice(0, 50),
        box: { x: rect.left, y: rect.top, width: rect.width, height: rect.height },
        rgb: [r!, g!, b!],
        alpha: (a! / 255) * opacity,
        opacity,
        large: size >= 24 || (size >= 18.66 && Number(style.fontWeight) >= 700),
      });
    }
    return runs;
  });
}

/**
 * The screenful as drawn, as a PNG: Chromium's own capture, its PNG written for speed (the same
 * pixels, a larger file). Playwright's screenshot costs about twice the cores: it hides the caret
 * (a style of its own, so the whole page is styled again) and writes a smaller PNG; the hidden text's
 * style already hides the caret, and the file goes no further than this process.
 */
async function screenful(cdp: CDPSession): Promise<Buffer> {
  const { data } = await cdp.send("Page.captureScreenshot", { format: "png", optimizeForSpeed: true });
  return Buffer.from(data, "base64");
}

interface Pixels {
  width: number;
  height: number;
  /** RGBA, row after row. */
  data: Uint8ClampedArray;
}

/**
 * The screenful's pixels, decoded here (Skia, as Chromium decodes it) rather than sent back into the
 * page to be decoded there: its 2-3 MB went through the protocol twice and kept the page's renderer
 * busy for as long as the measurement (decision 030).
 */
async function decodePng(png: Buffer): Promise<Pixels> {
  const image = await loadImage(png);
  const canvas = createCanvas(image.width, image.height);
  const context = canvas.getContext("2d");
  context.drawImage(image, 0, 0);
  return { width: image.width, height: image.height, data: context.getImageData(0, 0, image.width, image.height).data };
}

/** Each channel's linear value, looked up rather than computed for every pixel. */
const LINEAR = Array.from({ length: 256 }, (_, v) => ((v /= 255) <= 0.04045 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4));
const luminance = (r: number, g: number, b: number) =>
  0.2126 * LINEAR[Math.round(r)]! + 0.7152 * LINEAR[Math.round(g)]! + 0.0722 * LINEAR[Math.round(b)]!;

/** The runs whose contrast falls below WCAG AA somewhere behind them, each with its worst ratio. */
function lowContrastRuns(pixels: Pixels, runs: TextRun[]): string[] {
  const failures: string[] = [];
  for (const run of runs) {
    const x = Math.max(0, Math.floor(run.box.x));
    const y = Math.max(0, Math.floor(run.box.y));
    const width = Math.min(Math.ceil(run.box.width), pixels.width - x);
    const height = Math.min(Math.ceil(run.box.height), pixels.height - y);
    if (width <= 0 || height <= 0) continue;
    let worst = Infinity;
    const [r, g, b] = run.rgb;
    const opaque = run.alpha >= 1 ? luminance(r, g, b) : null;
    for (let row = y; row < y + height; row++) {
      for (let i = (row * pixels.width + x) * 4, end = i + width * 4; i < end; i += 4) {
        const [br, bg, bb] = [pixels.data[i]!, pixels.data[i + 1]!, pixels.data[i + 2]!];
        const drawn = opaque ?? luminance(r * run.alpha + br * (1 - run.alpha), g * run.alpha + bg * (1 - run.alpha), b * run.alpha + bb * (1 - run.alpha));
        const behind = luminance(br, bg, bb);
        worst = Math.min(worst, (Math.max(drawn, behind) + 0.05) / (Math.min(drawn, behind) + 0.05));
      }
    }
    const needed = run.large ? 3 : 4.5;
    if (worst < needed) failures.push(`"${run.text}": ${worst.toFixed(2)}:1, needs ${needed}:1`);
  }
  return failures;
}

/** On screen now: text runs whose contrast falls below WCAG AA somewhere behind them, with the worst ratio. */
async function lowContrastOnScreen(page: Page, cdp: CDPSession): Promise<string[]> {
  const runs = await textRuns(page);
  const showText = await addStyles(
    page,
    "*, *::placeholder { color: transparent !important; -webkit-text-fill-color: transparent !important; text-shadow: none !important; caret-color: transparent !important; }",
  );
  const png = await screenful(cdp);
  // Text that moved, faded or went away meanwhile (a toast leaving) was not drawn where it was measured.
  const key = (run: TextRun) => `${run.text}|${Math.round(run.box.x)},${Math.round(run.box.y)},${Math.round(run.box.width)},${Math.round(run.box.height)}|${run.opacity.toFixed(2)}`;
  const still = new Set((await textRuns(page)).map(key));
  await showText();
  return lowContrastRuns(await decodePng(png), runs.filter((run) => still.has(key(run))));
}

/** The whole page, a screen at a time (sticky and fixed parts stay where the reader sees them). */
export async function lowContrastText(page: Page): Promise<string[]> {
  // Colours must change at once when the text is hidden and shown again, not fade over the
  // buttons' transitions; and entrances must end (the endless pulses excepted).
  const transitionsBack = await addStyles(page, "*, *::before, *::after { transition: none !important; }");
  await page.waitForFunction(() =>
    document.getAnimations().every((animation) => animation.playState !== "running" || animation.effect?.getTiming().iterations === Infinity),
  );
  // The endless pulses are measured still, as they are without their animation (what Playwright's
  // screenshot with animations disabled drew), and pulse again afterwards.
  const stilled = await page.evaluateHandle(() => {
    const endless = document.getAnimations().filter((animation) => animation.effect?.getTiming().iterations === Infinity);
    for (const animation of endless) animation.cancel();
    return endless;
  });
  const cdp = await page.context().newCDPSession(page);
  const { screen, scrolled } = await page.evaluate(() => ({ screen: innerHeight, scrolled: scrollY }));
  const failures = new Set<string>();
  // The page's height is read again after each screenful: a page that grows while it is scrolled
  // (seen on the home page in CI) must still be measured down to its footer.
  for (let top = 0, screenfuls = 0; ; top += screen - 120) {
    await page.evaluate((y) => window.scrollTo({ top: y, behavior: "instant" }), top);
    for (const failure of await lowContrastOnScreen(page, cdp)) failures.add(failure);
    const atEnd = await page.evaluate(() => scrollY + innerHeight >= document.documentElement.scrollHeight - 1);
    if (atEnd) break;
    if (++screenfuls >= 100) throw new Error("the page kept growing for 100 screenfuls");
  }
  await cdp.detach();
  await page.evaluate((y) => window.scrollTo({ top: y, behavior: "instant" }), scrolled);
  await stilled.evaluate((endless) => endless.forEach((animation) => animation.play()));
  await stilled.dispose();
  await transitionsBack();
  return [...failures];
}

export async function expectReadableText(page: Page, what: string) {
  expect(await lowContrastText(page), `text below WCAG AA contrast on ${what}`).toEqual([]);
}
