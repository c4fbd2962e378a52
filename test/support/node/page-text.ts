// Checks of what a reader sees on a page that axe-core does not make: that a count agrees with
// its noun ("1 request", never "1 requests"), and that no two labels of a drawing overlap.
import type { Page } from "playwright-core";

/**
 * Words that end in "s" in the singular too, so "1 status" is no plural after a count of one.
 * Add a word here when a page rightly says it after "1".
 */
const SINGULAR_ENDING_IN_S = new Set(["access", "address", "bonus", "class", "process", "status"]);

/**
 * The phrases of the page's text that put a plural noun after a count of one, such as
 * "1 requests". Text hidden from sight but read by screen readers counts too.
 */
export async function pluralsAfterOne(page: Page): Promise<string[]> {
  // The text as rendered, which textContent is not: it leaves out what is not displayed and keeps
  // the words of neighbouring cells apart.
  // biome-ignore lint/performance/useDomNodeTextContent: Playwright's innerText, not the DOM's
  const text = await page.locator("body").innerText();
  return [...text.matchAll(/\b1 ([a-z]+s)\b/gi)]
    .filter((match) => !SINGULAR_ENDING_IN_S.has((match[1] ?? "").toLowerCase()))
    .map((match) => match[0]);
}

/** The pairs of elements matched by `selector` whose boxes on the screen overlap, by their text. */
export async function overlappingBoxes(page: Page, selector: string): Promise<string[]> {
  const boxes = await page.locator(selector).evaluateAll((elements) =>
    elements.map((element) => {
      const { left, right, top, bottom } = element.getBoundingClientRect();
      return { text: element.textContent ?? "", left, right, top, bottom };
    }),
  );
  const overlaps: string[] = [];
  for (const [i, a] of boxes.entries()) {
    for (const b of boxes.slice(i + 1)) {
      const apart =
        a.right <= b.left || b.right <= a.left || a.bottom <= b.top || b.bottom <= a.top;
      if (!apart) overlaps.push(`${a.text} / ${b.text}`);
    }
  }
  return overlaps;
}
