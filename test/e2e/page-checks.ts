import type { Page } from "playwright-core";

/** What a page looks like to a reader: overflow past the viewport, and text colors against what is behind them. */
export type PageLook = {
  scrollWidth: number;
  /** Elements reaching past the right edge of the viewport (not inside a scrolling box). */
  overflowing: string[];
  bodyBackground: [number, number, number];
  bodyLuminance: number;
  bodyContrast: number;
  /** Visible, enabled text below WCAG AA contrast (4.5:1, 3:1 when large) against its backdrop. */
  lowContrast: string[];
};

/**
 * Measures the page in the browser. Backdrops are composed from the element's own and its
 * ancestors' background colors, over the canvas (the body's, or the scheme's default); text under
 * a background image, or faded by opacity (disabled controls), is left to the screenshot.
 */
export function lookAt(page: Page): Promise<PageLook> {
  return page.evaluate(() => {
    type Rgba = [number, number, number, number];
    const parse = (value: string): Rgba => {
      const srgb = value.match(/^color\(srgb ([\d.e-]+) ([\d.e-]+) ([\d.e-]+)(?: \/ ([\d.e-]+))?\)$/);
      if (srgb) return [Number(srgb[1]) * 255, Number(srgb[2]) * 255, Number(srgb[3]) * 255, srgb[4] === undefined ? 1 : Number(srgb[4])];
      const rgb = value.match(/^rgba?\(([\d.]+),? ([\d.]+),? ([\d.]+)(?:,? \/? ?([\d.]+))?\)$/);
      if (!rgb) throw new Error(`unparsed color ${value}`);
      return [Number(rgb[1]), Number(rgb[2]), Number(rgb[3]), rgb[4] === undefined ? 1 : Number(rgb[4])];
    };
    const over = (top: Rgba, under: Rgba): Rgba => {
      const a = top[3];
      return [top[0] * a + under[0] * (1 - a), top[1] * a + under[1] * (1 - a), top[2] * a + under[2] * (1 - a), 1];
    };
    const channel = (c: number) => {
      const s = c / 255;
      return s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
    };
    const luminance = (c: Rgba) => 0.2126 * channel(c[0]) + 0.7152 * channel(c[1]) + 0.0722 * channel(c[2]);
    const contrast = (a: Rgba, b: Rgba) => {
      const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
      return (hi + 0.05) / (lo + 0.05);
    };
    const dark = matchMedia("(prefers-color-scheme: dark)").matches;
    const bodyStyle = getComputedStyle(document.body);
    // The canvas takes the body's background (CSS 2 section 14.2), else the scheme's Canvas color.
    const canvas = over(parse(bodyStyle.backgroundColor), dark ? [18, 18, 18, 1] : [255, 255, 255, 1]);
    const describe = (el: Element) => {
      const cls = typeof el.className === "string" && el.className ? `.${el.className.trim().split(/\s+/).join(".")}` : "";
      const text = (el.textContent ?? "").trim().replace(/\s+/g, " ").slice(0, 40);
      return `${el.tagName.toLowerCase()}${cls} "${text}"`;
    };

    /** The color behind an element, or null when an image or fading makes it unknowable here. */
    const backdrop = (el: Element): Rgba | null => {
      const layers: Rgba[] = [];
      for (let node: Element | null = el; node && node !== document.documentElement; node = node.parentElement) {
        const style = getComputedStyle(node);
        if (Number(style.opacity) < 1 || style.backgroundImage !== "none") return null;
        layers.push(parse(style.backgroundColor));
        // A dialog in the top layer sits on its backdrop, not on the page behind it.
        if (node instanceof HTMLDialogElement) break;
      }
      return layers.reverse().reduce((under, layer) => over(layer, under), canvas);
    };
    const disabled = (el: Element) => el.closest(":disabled, [aria-disabled='true'], [inert]") !== null;
    const isLarge = (style: CSSStyleDeclaration) => {
      const size = Number.parseFloat(style.fontSize);
      return size >= 24 || (size >= 18.66 && Number(style.fontWeight) >= 700);
    };

    const lowContrast: string[] = [];
    const textInputs = "input:not([type=checkbox]):not([type=radio]):not([type=range]):not([type=color]):not([type=file]):not([type=hidden]), select, textarea";
    for (const el of document.body.querySelectorAll("*")) {
      const ownText = [...el.childNodes].some((n) => n.nodeType === Node.TEXT_NODE && n.textContent?.trim());
      const filled = el.matches(textInputs) && (el as HTMLInputElement).value !== "";
      if (!(ownText || filled) || disabled(el) || el.closest(".visually-hidden, svg, noscript")) continue;
      if (!el.checkVisibility({ opacityProperty: true, visibilityProperty: true })) continue;
      const box = el.getBoundingClientRect();
      if (box.width === 0 || box.height === 0) continue;
      const behind = backdrop(el);
      if (!behind) continue;
      const style = getComputedStyle(el);
      const color = over(parse(style.color), behind);
      const ratio = contrast(color, behind);
      if (ratio < (isLarge(style) ? 3 : 4.5))
        lowContrast.push(`${describe(el)} ${style.color} on rgb(${behind.slice(0, 3).map(Math.round).join(", ")}): ${ratio.toFixed(2)}`);
    }

    const width = document.documentElement.clientWidth;
    const overflowing: string[] = [];
    const wide: Element[] = [];
    for (const el of document.body.querySelectorAll("*")) {
      const box = el.getBoundingClientRect();
      if (box.right <= width + 0.5 || box.width === 0) continue;
      // Inside a box that scrolls or clips on its own, the page itself does not widen.
      let clipped = false;
      for (let p = el.parentElement; p && p !== document.body; p = p.parentElement) {
        const overflowX = getComputedStyle(p).overflowX;
        if (overflowX !== "visible") clipped = true;
      }
      if (!clipped) wide.push(el);
    }
    // The deepest ones are the cause; their ancestors only grew to hold them.
    for (const el of wide)
      if (!wide.some((other) => other !== el && el.contains(other))) overflowing.push(`${describe(el)} right=${Math.round(el.getBoundingClientRect().right)}`);

    const bodyBackground = canvas.slice(0, 3) as [number, number, number];
    return {
      scrollWidth: document.documentElement.scrollWidth,
      overflowing: overflowing.slice(0, 12),
      bodyBackground,
      bodyLuminance: luminance(canvas),
      bodyContrast: contrast(over(parse(bodyStyle.color), canvas), canvas),
      lowContrast: lowContrast.slice(0, 20),
    };
  });
}

/**
 * A screenshot of the whole page as the phone lays it out. Playwright's `fullPage` briefly drops
 * touch emulation (pages that follow `(hover: none)` would be caught re-rendering), so the
 * viewport grows to the page's height instead; an open dialog is shot as the screen shows it.
 */
export async function screenshotWhole(page: Page, path: string): Promise<void> {
  const viewport = page.viewportSize();
  const modal = await page.evaluate(() => document.querySelector("dialog[open]") !== null);
  if (!viewport || modal) {
    await page.screenshot({ path });
    return;
  }
  const height = await page.evaluate(() => document.documentElement.scrollHeight);
  await page.setViewportSize({ width: viewport.width, height: Math.max(height, viewport.height) });
  try {
    await page.screenshot({ path });
  } finally {
    await page.setViewportSize(viewport);
  }
}
