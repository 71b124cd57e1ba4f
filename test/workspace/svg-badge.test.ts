import { beforeAll, describe, expect, it } from "bun:test";
import { loadSvgLibraries } from "../../src/workspace/svg/svg-libraries.ts";
import fc from "fast-check";
import { descendants, elements, parseSvg, type XmlNode, hostileTextOf } from "../helpers/svg.ts";
import { colorForProgress, renderBadge, renderNotFoundBadge } from "../../src/workspace/svg/badge.ts";
import type { SvgSet, SvgTodo } from "../../src/workspace/svg/svg-input.ts";

// The drawing code's libraries load on first use; the server awaits them per request, a unit test once.
beforeAll(() => loadSvgLibraries());

const titleOf = (svg: XmlNode) => elements(svg, "title")[0]?.text;
const texts = (svg: XmlNode) => elements(svg, "text").map((n) => n.text);
// Label rect then message rect; the clip path's rect and the gradient overlay have no plain fill.
const fills = (svg: XmlNode) =>
  elements(svg, "rect")
    .map((r) => r.attrs.fill)
    .filter((f): f is string => f !== undefined && !f.startsWith("url("));

let nextId = 0;
const todo = (completed: boolean, parentId: string | null = null): SvgTodo => ({
  id: `t${nextId++}`,
  parentId,
  title: `todo ${nextId}`,
  completed,
  sortOrder: nextId,
});
function setWith(done: number, open: number, name = "Groceries"): SvgSet {
  const todos = [...Array.from({ length: done }, () => todo(true)), ...Array.from({ length: open }, () => todo(false))];
  return { name, splitCompleted: false, todos };
}

describe("spec 2 section 4.4 badge.svg defaults", () => {
  it("labels the badge with the set name and counts top-level todos as done/total", () => {
    const set = setWith(2, 1);
    set.todos.push(todo(true, set.todos[2]!.id), todo(false, set.todos[0]!.id));
    const svg = parseSvg(renderBadge(set, {}));
    expect(texts(svg)).toContain("Groceries");
    expect(texts(svg)).toContain("2/3");
    expect(titleOf(svg)).toBe("Groceries: 2/3");
    expect(svg.attrs.role).toBe("img");
    expect(svg.attrs["aria-label"]).toBe("Groceries: 2/3");
  });

  it("colors the message by progress with the shields palette", () => {
    expect(colorForProgress(0, 0)).toBe("lightgrey");
    expect(colorForProgress(0, 4)).toBe("red");
    expect(colorForProgress(1, 4)).toBe("orange");
    expect(colorForProgress(2, 4)).toBe("yellow");
    expect(colorForProgress(3, 4)).toBe("yellowgreen");
    expect(colorForProgress(4, 4)).toBe("brightgreen");
    for (const [done, open, color] of [
      [0, 0, "lightgrey"],
      [0, 3, "red"],
      [1, 2, "orange"],
      [1, 1, "yellow"],
      [3, 1, "yellowgreen"],
      [2, 0, "brightgreen"],
    ] as const) {
      const set = setWith(done, open);
      expect(renderBadge(set, {})).toBe(renderBadge(set, { color }));
    }
  });

  it("uses #555 for the label background", () => {
    expect(fills(parseSvg(renderBadge(setWith(1, 1), {})))[0]).toBe("#555");
  });

  it("renders text widths from Verdana metrics, so narrow letters make a narrower badge", () => {
    const width = (label: string) => Number(parseSvg(renderBadge(setWith(1, 1), { label })).attrs.width);
    expect(width("iiiiiiii")).toBeLessThan(width("MMMMMMMM"));
    expect(width("a much longer label")).toBeGreaterThan(width("short"));
  });

  it("renders identical output for identical input", () => {
    const set = setWith(3, 2);
    expect(renderBadge(set, { style: "flat-square" })).toBe(renderBadge(set, { style: "flat-square" }));
  });
});

describe("spec 2 section 4.4 badge.svg parameters", () => {
  it("replaces the label and message", () => {
    const svg = parseSvg(renderBadge(setWith(1, 1), { label: "chores", message: "almost" }));
    expect(texts(svg)).toEqual(expect.arrayContaining(["chores", "almost"]));
    expect(titleOf(svg)).toBe("chores: almost");
  });

  it("drops the label section when label is empty, as shields does", () => {
    const svg = parseSvg(renderBadge(setWith(1, 1), { label: "" }));
    expect(titleOf(svg)).toBe("1/2");
  });

  it("keeps the default message when message is empty", () => {
    expect(titleOf(parseSvg(renderBadge(setWith(1, 1), { message: "" })))).toBe("Groceries: 1/2");
  });

  it("accepts color and labelColor as CSS colors, bare hex or shields names", () => {
    const set = setWith(1, 1);
    expect(fills(parseSvg(renderBadge(set, { color: "#123456", labelColor: "abcdef" })))).toEqual(["#abcdef", "#123456"]);
    expect(fills(parseSvg(renderBadge(set, { color: "rgb(1,2,3)", labelColor: "rebeccapurple" })))).toEqual(["rebeccapurple", "rgb(1,2,3)"]);
    expect(renderBadge(set, { color: "success" })).toBe(renderBadge(set, { color: "brightgreen" }));
  });

  it("renders flat-square differently from flat, and anything else as flat", () => {
    const set = setWith(1, 1);
    const flat = renderBadge(set, {});
    const square = renderBadge(set, { style: "flat-square" });
    expect(square).not.toBe(flat);
    expect(elements(parseSvg(square), "clipPath")).toHaveLength(0);
    expect(elements(parseSvg(flat), "clipPath")).toHaveLength(1);
    for (const style of ["flat", "plastic", "for-the-badge", "social", "FLAT-SQUARE", ""]) {
      expect(renderBadge(set, { style })).toBe(flat);
    }
  });

  it("falls back to the default colors instead of injecting invalid ones", () => {
    const set = setWith(1, 2);
    const plain = renderBadge(set, {});
    const hostile = [
      'red" onload="alert(1)',
      "url(javascript:alert(1))",
      "expression(alert(1))",
      "red;fill:url(#x)",
      "constructor",
      "__proto__",
      "toString",
      "var(--x)",
      "currentColor",
      "#12",
      "rgb(1,2)",
      "<script>",
    ];
    for (const value of hostile) {
      const out = renderBadge(set, { color: value, labelColor: value });
      expect(out).toBe(plain);
      parseSvg(out);
    }
  });
});

describe("spec 2 section 4.4 not-found badge", () => {
  it("reads not found, in red, with a default label", () => {
    const svg = parseSvg(renderNotFoundBadge({}));
    expect(titleOf(svg)).toBe("share link: not found");
    expect(texts(svg)).toContain("not found");
    expect(renderNotFoundBadge({})).toBe(renderNotFoundBadge({ color: "red" }));
  });

  it("keeps the embedder's label and style but not their message", () => {
    const svg = parseSvg(renderNotFoundBadge({ label: "<tasks>", message: "9/9", style: "flat-square" }));
    expect(titleOf(svg)).toBe("<tasks>: not found");
    expect(elements(svg, "clipPath")).toHaveLength(0);
  });
});

// What a text node must read back as: XML 1.0 cannot carry most control characters,
// lone surrogates or U+FFFE/U+FFFF, so they are dropped; C1 controls too; whitespace
// runs collapse to one space (SVG renders them so anyway) and ends are trimmed.
function expectedText(raw: string): string {
  const kept = Array.from(raw).filter((ch) => {
    const code = ch.codePointAt(0)!;
    if (ch === "\t" || ch === "\n" || ch === "\r") return true;
    return !(code < 0x20 || (code >= 0x7f && code <= 0x9f) || (code >= 0xd800 && code <= 0xdfff) || code === 0xfffe || code === 0xffff);
  });
  return kept
    .join("")
    .replace(/[\t\n\r ]+/g, " ")
    .trim();
}

const hostileText = hostileTextOf(12, 30);

describe("badge text is always escaped", () => {
  it("yields well-formed XML whose text reads back as the sanitized input", () => {
    fc.assert(
      fc.property(hostileText, fc.option(hostileText), fc.option(hostileText), (name, label, message) => {
        const set = { ...setWith(1, 2), name };
        const query = { label: label ?? undefined, message: message ?? undefined };
        const out = renderBadge(set, query);
        const svg = parseSvg(out);
        const shownLabel = expectedText(label ?? name);
        const shownMessage = expectedText(message ?? "") || "1/3";
        expect(titleOf(svg)).toBe(shownLabel ? `${shownLabel}: ${shownMessage}` : shownMessage);
        expect(svg.attrs["aria-label"]).toBe(titleOf(svg)!);
        expect(texts(svg)).toContain(shownMessage);
        if (shownLabel) expect(texts(svg)).toContain(shownLabel);
        expect(elements(svg, "script")).toHaveLength(0);
        expect(descendants(svg).some((n) => Object.keys(n.attrs).some((a) => a.startsWith("on")))).toBe(false);
      }),
      { numRuns: 300 },
    );
  });

  it("escapes a hostile label in the not-found badge", () => {
    fc.assert(
      fc.property(hostileText, (label) => {
        const svg = parseSvg(renderNotFoundBadge({ label }));
        const shown = expectedText(label);
        expect(titleOf(svg)).toBe(shown ? `${shown}: not found` : "not found");
      }),
      { numRuns: 100 },
    );
  });
});
