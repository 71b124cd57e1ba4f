import { describe, expect, it } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { accentVariants, BACKGROUNDS, contrastRatio, MIN_CONTRAST, relativeLuminance } from "../../web/src/lib/contrast.ts";

const hexColor = fc
  .tuple(fc.integer({ min: 0, max: 255 }), fc.integer({ min: 0, max: 255 }), fc.integer({ min: 0, max: 255 }))
  .map((rgb) => `#${rgb.map((c) => c.toString(16).padStart(2, "0")).join("")}`);

describe("accent colour contrast (issue 42)", () => {
  it("computes WCAG 2 luminance and contrast", () => {
    expect(relativeLuminance("#ffffff")).toBe(1);
    expect(relativeLuminance("#000000")).toBe(0);
    expect(contrastRatio("#000000", "#ffffff")).toBe(21);
    expect(contrastRatio("#777777", "#ffffff")).toBeCloseTo(4.48, 2);
    expect(contrastRatio("#ffffff", "#777777")).toBe(contrastRatio("#777777", "#ffffff"));
  });

  it("derives a dark-mode accent for a dark colour that read at 1.9:1, and keeps one that already reads", () => {
    // The colour from the report: dark teal on the dark page.
    expect(contrastRatio("#0f766e", "#1b2129")).toBeLessThan(3);
    const { light, dark } = accentVariants("#0F766E");
    expect(light).toEqual({ accent: "#0f766e", accentText: "#ffffff", adjusted: false });
    expect(dark.adjusted).toBe(true);
    expect(dark.accentText).toBe("#0b1320");
    for (const bg of BACKGROUNDS.dark) expect(contrastRatio(dark.accent, bg)).toBeGreaterThanOrEqual(MIN_CONTRAST);
    // Still the same hue: teal, lighter, not grey or white.
    const [r, g, b] = [1, 3, 5].map((i) => Number.parseInt(dark.accent.slice(i, i + 2), 16)) as [number, number, number];
    expect(g - r).toBeGreaterThan(64);
    expect(b - r).toBeGreaterThan(64);
    // A pale yellow cannot be read on white: the light scheme gets a darker one.
    expect(accentVariants("#ffe066").light.adjusted).toBe(true);
  });

  it("any #rrggbb gives, in each scheme, an accent with at least 4.5:1 on every background and text on it with 4.5:1 (property)", () => {
    fc.assert(
      fc.property(hexColor, (hex) => {
        const variants = accentVariants(hex);
        for (const scheme of ["light", "dark"] as const) {
          const { accent, accentText, adjusted } = variants[scheme];
          expect(accent).toMatch(/^#[0-9a-f]{6}$/);
          for (const bg of BACKGROUNDS[scheme]) expect(contrastRatio(accent, bg)).toBeGreaterThanOrEqual(MIN_CONTRAST);
          expect(contrastRatio(accent, accentText)).toBeGreaterThanOrEqual(MIN_CONTRAST);
          // A colour that already reads is kept as chosen.
          if (BACKGROUNDS[scheme].every((bg) => contrastRatio(hex, bg) >= MIN_CONTRAST)) expect(adjusted).toBe(false);
        }
      }),
      { numRuns: 2000 },
    );
  });

  it("checks against the backgrounds the stylesheet really uses", () => {
    const css = readFileSync(join(import.meta.dir, "../../web/src/styles/app.css"), "utf8");
    const [light, dark] = css.split("@media (prefers-color-scheme: dark)") as [string, string];
    const token = (block: string, name: string) => new RegExp(`--${name}:\\s*(#[0-9a-f]{6})`, "i").exec(block)?.[1]?.toLowerCase();
    const tokens = (block: string) => ["bg", "surface", "surface-2"].map((name) => token(block, name));
    expect(tokens(light)).toEqual([...BACKGROUNDS.light]);
    expect(tokens(dark)).toEqual([...BACKGROUNDS.dark]);
  });
});
