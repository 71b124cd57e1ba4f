import { describe, expect, it } from "bun:test";
import { readCssColor } from "../../src/workspace/svg/svg-color.ts";

describe("todo-list.svg color overrides accept only CSS colors", () => {
  it("accepts hex, rgb(), rgba(), hsl(), hsla() with plain numbers and named colors", () => {
    for (const color of [
      "#abc",
      "#abcd",
      "#a1b2c3",
      "#a1b2c3d4",
      "rgb(1,2,3)",
      "rgb(1 2 3)",
      "rgba(1, 2, 3, .5)",
      "hsl(120, 50%, 50%)",
      "hsla(120deg,50%,50%,0.3)",
      "red",
      "rebeccapurple",
    ]) {
      expect(readCssColor(color)).toBe(color);
    }
  });

  // These two were refused while css-color-converter decided; both are CSS colors that a browser draws
  // in an SVG, and accent_color has always accepted them (test/foundation/css-color.test.ts).
  it("accepts transparent and fractional channels", () => {
    for (const color of ["transparent", "rgb(1.5,2,3)"]) {
      expect(readCssColor(color)).toBe(color);
    }
  });

  it("trims and lower-cases named colors", () => {
    expect(readCssColor("  RebeccaPurple ")).toBe("rebeccapurple");
    expect(readCssColor(" #ABC ")).toBe("#ABC");
  });

  it("refuses anything else, including values that would break out of an attribute", () => {
    const refused = [
      'red" onload="alert(1)',
      "url(javascript:alert(1))",
      "url(#x)",
      "var(--accent)",
      "currentColor",
      "expression(alert(1))",
      "red;fill:blue",
      "constructor",
      "__proto__",
      "hasOwnProperty",
      "#ab",
      "#abcde",
      "ff0000",
      "rgb(1,2)",
      "calc(1)",
      "",
      "   ",
      "<script>",
    ];
    for (const color of refused) expect(readCssColor(color)).toBeUndefined();
    expect(readCssColor(undefined)).toBeUndefined();
  });
});
