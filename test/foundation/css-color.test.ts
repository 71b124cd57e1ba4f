import { beforeAll, describe, expect, it } from "bun:test";
import { loadSvgLibraries } from "../../src/workspace/svg/svg-libraries.ts";
import { fromString } from "css-color-converter";
import fc from "fast-check";
import { isValidCssColor } from "../../src/settings/validation/settings-fields.ts";
import { isCssColor, toLegacyRgb } from "../../src/shared/css-color.ts";
import { renderBadge } from "../../src/workspace/svg/badge.ts";
import { readCssColor } from "../../src/workspace/svg/svg-color.ts";
import { renderTodoList } from "../../src/workspace/svg/todo-list-svg.ts";
import { descendants, parseSvg } from "../helpers/svg.ts";

// The drawing code's libraries load on first use; the server awaits them per request, a unit test once.
beforeAll(() => loadSvgLibraries());

const svgAccepts = (value: string) => readCssColor(value) !== undefined;

// [value, accent_color (spec 3 section 2.3), share-link SVG color (docs/workspace.md "Colors are CSS colors")]
const TABLE: [string, boolean, boolean][] = [
  // The three values the two old validators disagreed on.
  ["hsl(120deg 50% 50%)", true, true],
  ["transparent", true, true],
  ["currentcolor", true, false], // an SVG shown as an image has no surrounding color to take
  ["currentColor", true, false],
  // CSS Color 4 syntaxes.
  ["rebeccapurple", true, true],
  ["#a1b2c3d4", true, true],
  ["rgb(1.5,2,3)", true, true],
  ["RGB(1,2,3)", true, true],
  ["rgb(49 45% 115 / 50%)", true, true],
  ["hsl(0.5turn, 50%, 50%)", true, true],
  ["hsl(120 50 50 / none)", true, true],
  ["hwb(10 10% 20%)", true, true],
  ["lab(50 20 -30)", true, true],
  ["lch(50% 40 200)", true, true],
  ["oklab(0.7 -0.1 0.1)", true, true],
  ["oklch(70% 0.1 200 / 0.5)", true, true],
  ["color(display-p3 1 0 0)", true, true],
  // Numbers a browser would clamp or wrap: refused so that what is stored is what is shown.
  ["rgb(256, 0, 0)", false, false],
  ["rgb(-1, 0, 0)", false, false],
  ["rgba(0,0,0,1.5)", false, false],
  ["hsl(400, 50%, 50%)", false, false],
  ["hsl(120 101% 50%)", false, false],
  ["oklch(1.2 0.1 30)", false, false],
  // Not CSS Color 4 colors, or not ones with a fixed value.
  ["inherit", false, false],
  ["Canvas", false, false],
  ["var(--accent)", false, false],
  ["rgb(calc(1) 2 3)", false, false],
  ["color-mix(in srgb, red, blue)", false, false],
  ["rgb(from red r g b)", false, false],
  ["light-dark(red, blue)", false, false],
  ["hsl(10, 50, 50)", false, false],
  ["rgb(1, 2%, 3)", false, false],
  ["rgb(1 2 3", false, false],
  ["rgb(1/**/2 3)", false, false],
  ["r\\65 d", false, false],
  ["constructor", false, false],
];

describe("one CSS color definition for accent_color and the share-link SVGs", () => {
  it.each(TABLE)("%s: accent %p, SVG %p", (value, accent, svg) => {
    expect(isValidCssColor(value)).toBe(accent);
    expect(svgAccepts(value)).toBe(svg);
  });

  it("differs between the two only on currentcolor", () => {
    for (const [value, accent, svg] of TABLE) if (value.toLowerCase() !== "currentcolor") expect(svg).toBe(accent);
  });
});

const between = (min: number, max: number) => fc.double({ min, max, noNaN: true }).map((n) => String(Math.round(n * 1000) / 1000));
const percent = between(0, 100).map((n) => `${n}%`);
const alpha = fc.option(fc.oneof(between(0, 1), percent, fc.constant("none")), { nil: undefined });
const hue = fc.oneof(
  between(0, 360),
  between(0, 360).map((n) => `${n}deg`),
  between(0, 1).map((n) => `${n}turn`),
);
const modern = (name: string, ...channels: fc.Arbitrary<string>[]) =>
  fc.tuple(fc.tuple(...channels), alpha).map(([values, a]) => `${name}(${values.join(" ")}${a === undefined ? "" : ` / ${a}`})`);

/** Colors of every CSS Color 4 notation, in range by construction. */
const validColor = fc.oneof(
  fc.constantFrom("red", "Navy", "transparent", "lightgoldenrodyellow", "currentcolor"),
  fc.stringMatching(/^#([0-9a-fA-F]{3,4}|[0-9a-fA-F]{6}|[0-9a-fA-F]{8})$/),
  fc.tuple(fc.integer({ min: 0, max: 255 }), fc.integer({ min: 0, max: 255 }), fc.integer({ min: 0, max: 255 })).map((c) => `rgb(${c.join(", ")})`),
  modern("rgb", between(0, 255), percent, between(0, 255)),
  modern("hsl", hue, percent, percent),
  modern("hwb", hue, percent, percent),
  modern("lab", between(0, 100), between(-125, 125), between(-125, 125)),
  modern("oklch", between(0, 1), between(0, 0.4), hue),
  modern(
    "color",
    fc.tuple(fc.constantFrom("srgb", "display-p3", "rec2020"), between(0, 1)).map((c) => c.join(" ")),
    between(0, 1),
    between(0, 1),
  ),
);

describe("the SVG colors never carry what the validator refused", () => {
  it("accepts every generated CSS Color 4 color", () => {
    fc.assert(fc.property(validColor, (color) => isCssColor(color)));
  });

  it("reads any query value as undefined or an accepted, XML-safe color", () => {
    const value = fc.oneof(
      fc.string(),
      validColor,
      fc.tuple(validColor, fc.string({ maxLength: 3 })).map(([a, b]) => a + b),
    );
    fc.assert(
      fc.property(value, (query) => {
        const color = readCssColor(query);
        return color === undefined || (isCssColor(color) && color.toLowerCase() !== "currentcolor" && !/[<>&"'\u0000-\u001f]/.test(color));
      }),
      { numRuns: 2000 },
    );
  });

  it("draws every todo-list fill and stroke from the theme or from an accepted color", () => {
    const set = { name: "Chores", splitCompleted: false, todos: [{ id: "a", parentId: null, title: "Sweep", completed: true, sortOrder: 0 }] };
    const theme = new Set(descendants(parseSvg(renderTodoList(set, {}))).flatMap((n) => [n.attrs.fill, n.attrs.stroke]));
    fc.assert(
      fc.property(fc.oneof(validColor, fc.string()), (color) => {
        const svg = parseSvg(renderTodoList(set, { bgColor: color, textColor: color, checkColor: color, borderColor: color }));
        const paints = descendants(svg)
          .flatMap((n) => [n.attrs.fill, n.attrs.stroke])
          .filter((p) => p !== undefined && p !== "none");
        return paints.every((p) => theme.has(p) || (isCssColor(p) && p === readCssColor(color)));
      }),
      { numRuns: 300 },
    );
  });

  it("hands badge-maker only colors it reads, converting newer syntax to rgb()", () => {
    fc.assert(
      fc.property(validColor, (color) => {
        const legacy = toLegacyRgb(color);
        return color.toLowerCase() === "currentcolor" ? legacy === undefined : legacy !== undefined && isCssColor(legacy) && fromString(legacy) !== null;
      }),
    );
    const set = { name: "Chores", splitCompleted: false, todos: [] };
    expect(renderBadge(set, { color: "oklch(70% 0.1 200)" })).toContain('fill="rgb(64, 177, 183)"');
    expect(renderBadge(set, { color: "rgb(1,2,3)" })).toContain('fill="rgb(1,2,3)"');
  });
});
