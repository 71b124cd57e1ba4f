import { expect } from "bun:test";
import type { Page } from "playwright-core";

/**
 * Runs in the page (passed whole, as a function: the page's CSP refuses string evaluation). Names
 * an element as a person would: "body", "row <todo>", "field <label>", "checkbox <label>",
 * "button <name>". Gives the focused element's name, whether it is `want`, or the Tab stops of
 * the row titled `stopsOf`: the row, then its own controls (not its sub-todos'), in order.
 */
function probe({ want, stopsOf }: { want?: string; stopsOf?: string }): string | boolean | string[] {
  const describe = (el: Element | null): string => {
    if (!el || el === document.body) return "body";
    if (el.matches("li.ws-todo")) return `row ${el.querySelector(":scope > .ws-todo-row .ws-title")?.textContent ?? el.getAttribute("aria-label")}`;
    const label = (el as HTMLInputElement).labels?.[0]?.textContent?.trim() || el.getAttribute("aria-label") || el.textContent?.trim() || "";
    const kind =
      el instanceof HTMLInputElement
        ? el.type === "checkbox" || el.type === "radio"
          ? el.type
          : "field"
        : el instanceof HTMLTextAreaElement
          ? "field"
          : el.tagName.toLowerCase();
    return `${kind} ${label}`;
  };
  if (stopsOf !== undefined) {
    const row = [...document.querySelectorAll("li.ws-todo")].find((li) => li.querySelector(":scope > .ws-todo-row .ws-title")?.textContent === stopsOf);
    if (!row) return [];
    const own = [...row.querySelectorAll<HTMLInputElement>("a[href], button, input, select, textarea")].filter(
      (el) => el.closest("li.ws-todo") === row && !el.disabled,
    );
    return [describe(row), ...own.map(describe)];
  }
  const now = describe(document.activeElement);
  return want === undefined ? now : now === want;
}

export const focused = (page: Page) => page.evaluate(probe, {}) as Promise<string>;

/** What Tab should reach in a todo's row: the row, then its own controls, in order. */
export const rowStops = (page: Page, title: string) => page.evaluate(probe, { stopsOf: title }) as Promise<string[]>;

/** Waits until focus is where a person expects it, then asserts it (the message names where it is instead). */
export async function expectFocus(page: Page, want: string) {
  await page.waitForFunction(probe, { want }, { timeout: 5000 }).catch(() => {});
  expect(await focused(page)).toBe(want);
}
