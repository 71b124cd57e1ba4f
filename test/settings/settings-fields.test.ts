import { describe, expect, it } from "bun:test";
import fc from "fast-check";
import { ACTION_KEYS } from "../../src/contract/workspace.ts";
import { isValidActionBar, isValidCssColor, isValidHhMm, isValidHttpUrl, isValidTimezone } from "../../src/settings/validation/settings-fields.ts";

describe("spec 3 section 2.3 default_timezone: a valid IANA name", () => {
  it("accepts listed zones, UTC and links the runtime resolves", () => {
    for (const zone of ["UTC", "Europe/Berlin", "America/Argentina/Buenos_Aires", "Asia/Kolkata", "Etc/GMT+5", "Asia/Calcutta"]) {
      expect(isValidTimezone(zone)).toBe(true);
    }
  });
  it("refuses unknown names, offsets, other spellings, padding and non-strings", () => {
    for (const zone of ["", "Mars/Olympus_Mons", "+05:30", "-0800", "utc", "america/new_york", " UTC", "Europe/Berlin\n", "../etc/passwd", 5, null]) {
      expect(isValidTimezone(zone)).toBe(false);
    }
  });
  it("accepts every zone Intl lists", () => {
    expect(Intl.supportedValuesOf("timeZone").every(isValidTimezone)).toBe(true);
  });
});

describe("spec 3 section 2.3 accent_color: a CSS color or empty", () => {
  it("accepts empty (reset), named, hex and functional colors", () => {
    const valid = [
      "",
      "red",
      "RebeccaPurple",
      "transparent",
      "currentColor",
      "#abc",
      "#abcd",
      "#a1b2c3",
      "#A1B2C3D4",
      "rgb(0, 128, 255)",
      "rgba(0,0,0,0.5)",
      "rgb(10% 20% 30%)",
      "rgb(1 2 3 / 50%)",
      "hsl(210, 50%, 40%)",
      "hsla(210deg 50% 40% / .25)",
    ];
    for (const color of valid) expect(isValidCssColor(color)).toBe(true);
  });
  it("refuses out-of-range numbers, wrong arity, unknown names and anything that could escape a style", () => {
    const invalid = [
      "blurple",
      "#ab",
      "#abcde",
      "rgb(256, 0, 0)",
      "rgb(-1, 0, 0)",
      "rgb(1, 2)",
      "rgb(1, 2%, 3)",
      "rgba(0,0,0,1.5)",
      "hsl(400, 50%, 50%)",
      "hsl(10, 50, 50)",
      "rgb()",
      "red;",
      "red}",
      "{red}",
      "url(x)",
      "URL(http://a)",
      "expression(alert(1))",
      "'red'",
      '"red"',
      "red\u0000",
      " red",
      0xff0000,
      null,
    ];
    for (const color of invalid) expect(isValidCssColor(color)).toBe(false);
  });
});

const hexDigits = (length: number) => fc.string({ unit: fc.constantFrom(..."0123456789abcdefABCDEF"), minLength: length, maxLength: length });
const hexColor = fc.constantFrom(3, 4, 6, 8).chain((length) => hexDigits(length).map((digits) => `#${digits}`));
const alphaValue = fc.oneof(
  fc.integer({ min: 0, max: 100 }).map((n) => `${n}%`),
  fc.integer({ min: 0, max: 100 }).map((n) => `${n / 100}`),
);
const rgbColor = fc
  .tuple(fc.array(fc.integer({ min: 0, max: 255 }), { minLength: 3, maxLength: 3 }), fc.option(alphaValue, { nil: undefined }), fc.boolean())
  .map(([[r, g, b], alpha, legacy]) =>
    legacy ? `rgb${alpha ? "a" : ""}(${r}, ${g}, ${b}${alpha ? `, ${alpha}` : ""})` : `rgb(${r} ${g} ${b}${alpha ? ` / ${alpha}` : ""})`,
  );
const hslColor = fc
  .tuple(fc.integer({ min: 0, max: 360 }), fc.integer({ min: 0, max: 100 }), fc.integer({ min: 0, max: 100 }), fc.option(alphaValue, { nil: undefined }))
  .map(([h, s, l, alpha]) => `hsl${alpha ? "a" : ""}(${h}, ${s}%, ${l}%${alpha ? `, ${alpha}` : ""})`);
const validColor = fc.oneof(hexColor, rgbColor, hslColor, fc.constantFrom("red", "Navy", "transparent", "lightgoldenrodyellow"));
const forbidden = fc.constantFrom(";", "{", "}", "url(", "expression(", "'", '"', "\n");

/** `text` with `insert` placed at `at` (taken modulo the length + 1). */
const inject = (text: string, insert: string, at: number) => {
  const index = at % (text.length + 1);
  return text.slice(0, index) + insert + text.slice(index);
};

describe("accent_color properties", () => {
  it("accepts every generated hex, rgb(), hsl() and named color", () => {
    fc.assert(fc.property(validColor, (color) => isValidCssColor(color)));
  });
  it("refuses every valid color with a forbidden character or function injected anywhere", () => {
    fc.assert(fc.property(validColor, forbidden, fc.nat(), (color, bad, at) => !isValidCssColor(inject(color, bad, at))));
  });
});

describe("spec 2 section 2.1 renewTime: HH:MM, 24-hour", () => {
  const hhmm = fc
    .tuple(fc.integer({ min: 0, max: 23 }), fc.integer({ min: 0, max: 59 }))
    .map(([h, m]) => `${String(h).padStart(2, "0")}:${String(m).padStart(2, "0")}`);

  it("accepts every zero-padded time of day", () => {
    fc.assert(fc.property(hhmm, (time) => isValidHhMm(time)));
  });
  it("refuses hours past 23 and minutes past 59", () => {
    fc.assert(fc.property(fc.integer({ min: 24, max: 99 }), fc.integer({ min: 0, max: 59 }), (h, m) => !isValidHhMm(`${h}:${String(m).padStart(2, "0")}`)));
    fc.assert(fc.property(fc.integer({ min: 0, max: 23 }), fc.integer({ min: 60, max: 99 }), (h, m) => !isValidHhMm(`${String(h).padStart(2, "0")}:${m}`)));
  });
  it("refuses every valid time with any other character injected", () => {
    const extra = fc.string({ minLength: 1, maxLength: 3 });
    fc.assert(fc.property(hhmm, extra, fc.nat(), (time, bad, at) => !isValidHhMm(inject(time, bad, at))));
  });
  it("refuses unpadded, 12-hour and non-string values", () => {
    for (const value of ["8:00", "08:0", "8am", "08:00 PM", "24:00", "", 800, null]) expect(isValidHhMm(value)).toBe(false);
  });
});

describe("spec 3 sections 2.3 and 2.4: URLs", () => {
  it("accepts absolute http(s) URLs and empty", () => {
    for (const url of ["", "https://example.com/logo.png", "http://localhost:3000/a.mp3?x=1"]) expect(isValidHttpUrl(url)).toBe(true);
  });
  it("refuses other schemes, relative URLs, whitespace and non-strings", () => {
    for (const url of [
      "javascript:alert(1)",
      "data:image/png;base64,AA",
      "ftp://example.com/a",
      "/logo.png",
      "example.com",
      "https://exa mple.com",
      "https://example.com/\n",
      "https://",
      42,
      null,
    ]) {
      expect(isValidHttpUrl(url)).toBe(false);
    }
  });
  it("accepts every generated web URL", () => {
    fc.assert(fc.property(fc.webUrl(), (url) => isValidHttpUrl(url)));
  });
});

describe("spec 3 section 2.4 action_bar", () => {
  it("accepts null, an empty bar and any distinct subset of the action keys", () => {
    expect(isValidActionBar(null)).toBe(true);
    expect(isValidActionBar([])).toBe(true);
    fc.assert(fc.property(fc.shuffledSubarray([...ACTION_KEYS]), (bar) => isValidActionBar(bar)));
  });
  it("refuses unknown keys, repeated keys and non-arrays", () => {
    for (const bar of [["edit", "fly"], ["edit", "edit"], "edit", { 0: "edit" }, [null], undefined]) expect(isValidActionBar(bar)).toBe(false);
  });
});
