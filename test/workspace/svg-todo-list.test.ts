import { beforeAll, describe, expect, it } from "bun:test";
import { loadSvgLibraries } from "../../src/workspace/svg/svg-libraries.ts";
import measure from "anafanafo";
import fc from "fast-check";
import { descendants, elements, parseSvg, type XmlNode, hostileTextOf } from "../helpers/svg.ts";
import type { SvgQuery, SvgSet, SvgTodo } from "../../src/workspace/svg/svg-input.ts";
import { renderTodoList } from "../../src/workspace/svg/todo-list-svg.ts";

// The drawing code's libraries load on first use; the server awaits them per request, a unit test once.
beforeAll(() => loadSvgLibraries());

type Rendered = { svg: XmlNode; width: number; fontSize: number; heading?: XmlNode; small: XmlNode[]; rows: XmlNode[] };
// Todo titles inherit the group's font size; the heading, summary, separator and
// "+ N more" lines set their own.
function render(set: SvgSet, query: SvgQuery = {}): Rendered {
  const svg = parseSvg(renderTodoList(set, query));
  const group = elements(svg, "g")[0]!;
  const textNodes = elements(svg, "text");
  return {
    svg,
    width: Number(svg.attrs.width),
    fontSize: Number(group.attrs["font-size"]),
    heading: textNodes.find((n) => n.attrs["font-weight"] === "bold"),
    small: textNodes.filter((n) => n.attrs["font-size"] !== undefined && n.attrs["font-weight"] === undefined),
    rows: textNodes.filter((n) => n.attrs["font-size"] === undefined),
  };
}
const rowTitles = (r: Rendered) => r.rows.map((n) => n.text);
const smallTexts = (r: Rendered) => r.small.map((n) => n.text);

const todo = (id: string, completed = false, parentId: string | null = null, sortOrder = 0, title = id): SvgTodo => ({
  id,
  parentId,
  title,
  completed,
  sortOrder,
});
const numbered = (count: number) => Array.from({ length: count }, (_, i) => todo(`Todo ${i + 1}`, i % 3 === 0, null, i));
const set = (todos: SvgTodo[], splitCompleted = false, name = "Chores"): SvgSet => ({ name, splitCompleted, todos });

describe("spec 2 section 4.4 todo-list.svg", () => {
  it("renders heading, progress summary of top-level todos, a bar and one row per todo", () => {
    const r = render(set([todo("Wash", true, null, 0), todo("Dry", false, null, 1), todo("Rinse", true, "Wash", 0)]));
    expect(r.heading?.text).toBe("Chores");
    expect(smallTexts(r)[0]).toBe("1 of 2 done \u00b7 50%");
    expect(rowTitles(r)).toEqual(["Wash", "Rinse", "Dry"]);
    expect(elements(r.svg, "path")).toHaveLength(2);
    expect(elements(r.svg, "title")[0]!.text).toBe("Chores: 1 of 2 done");
    expect(r.svg.attrs.role).toBe("img");
    expect(r.svg.attrs["aria-label"]).toBe("Chores: 1 of 2 done");
  });

  it("mutes and strikes completed rows", () => {
    const [done, open] = render(set([todo("a", true, null, 0), todo("b", false, null, 1)])).rows;
    expect(done!.attrs["text-decoration"]).toBe("line-through");
    expect(open!.attrs["text-decoration"]).toBeUndefined();
  });

  it("escapes markup in set names and titles", () => {
    const hostile = `<script>alert("x")</script> & ]]> 'q'`;
    const out = renderTodoList(set([todo("a", false, null, 0, hostile)], false, hostile), { width: "1000" });
    expect(out).not.toContain("<script");
    const r = render(set([todo("a", false, null, 0, hostile)], false, hostile), { width: "1000" });
    expect(rowTitles(r)).toEqual([hostile]);
    expect(r.heading?.text).toBe(hostile);
  });

  it("shows an empty set as such", () => {
    const r = render(set([]));
    expect(smallTexts(r)).toEqual(["0 of 0 done", "No todos yet"]);
  });

  it("contains no scripts, links or external references and is deterministic", () => {
    const input = set(numbered(12), true);
    const out = renderTodoList(input, { theme: "dark" });
    expect(out).toBe(renderTodoList(input, { theme: "dark" }));
    const nodes = descendants(parseSvg(out));
    for (const name of ["script", "foreignObject", "a", "image", "use", "style"]) expect(nodes.some((n) => n.name === name)).toBe(false);
    expect(nodes.some((n) => Object.keys(n.attrs).some((a) => a.includes("href") || a.startsWith("on")))).toBe(false);
  });
});

describe("spec 2 section 8 clamps", () => {
  it("clamps width to 200-1000 and ignores a non-numeric width", () => {
    const input = set(numbered(3));
    expect(render(input, { width: "50" }).width).toBe(200);
    expect(render(input, { width: "5000" }).width).toBe(1000);
    expect(render(input, { width: "420" }).width).toBe(420);
    expect(renderTodoList(input, { width: "wide" })).toBe(renderTodoList(input, {}));
  });

  it("sizes an automatic width to the longest line, between 200 and 1000", () => {
    expect(render(set([todo("x")])).width).toBe(200);
    const medium = render(set([todo("a title long enough to need more than two hundred pixels")])).width;
    expect(medium).toBeGreaterThan(200);
    expect(medium).toBeLessThan(1000);
    expect(render(set([todo("w".repeat(400))])).width).toBe(1000);
  });

  it("clamps fontSize to 10-24 with 14 by default", () => {
    const input = set(numbered(2));
    expect(render(input).fontSize).toBe(14);
    expect(render(input, { fontSize: "1" }).fontSize).toBe(10);
    expect(render(input, { fontSize: "99" }).fontSize).toBe(24);
    expect(render(input, { fontSize: "18" }).fontSize).toBe(18);
    expect(renderTodoList(input, { fontSize: "big" })).toBe(renderTodoList(input, {}));
  });

  it("clamps maxItems to 1-100 and says how many rows were left out", () => {
    const input = set(numbered(150));
    const one = render(input, { maxItems: "0" });
    expect(rowTitles(one)).toEqual(["Todo 1"]);
    expect(smallTexts(one)).toContain("+ 149 more");
    const hundred = render(input, { maxItems: "1000" });
    expect(hundred.rows).toHaveLength(100);
    expect(smallTexts(hundred)).toContain("+ 50 more");
    // "All" (the default, or anything not a number) stops at the clamp's ceiling as well.
    expect(render(input, { maxItems: "all" }).rows).toHaveLength(100);
    expect(render(input, {}).rows).toHaveLength(100);
    expect(smallTexts(render(input, {}))).toContain("+ 50 more");
    expect(smallTexts(render(set(numbered(3)), { maxItems: "3" })).some((t) => t.includes("more"))).toBe(false);
  });

  it("counts sub-todos as rows for maxItems", () => {
    const r = render(set([todo("a", false, null, 0), todo("a1", false, "a", 0), todo("b", false, null, 1)]), { maxItems: "2" });
    expect(rowTitles(r)).toEqual(["a", "a1"]);
    expect(smallTexts(r)).toContain("+ 1 more");
  });
});

describe("spec 2 section 2.1 splitCompleted and sub-todo nesting", () => {
  const todos = [
    todo("Alpha", false, null, 0),
    todo("Alpha sub", true, "Alpha", 0),
    todo("Beta", true, null, 1),
    todo("Beta sub", false, "Beta", 0),
    todo("Gamma", false, null, 2),
  ];

  it("keeps sortOrder when splitCompleted is off", () => {
    const r = render(set(todos, false));
    expect(rowTitles(r)).toEqual(["Alpha", "Alpha sub", "Beta", "Beta sub", "Gamma"]);
    expect(smallTexts(r).some((t) => t.startsWith("Completed"))).toBe(false);
  });

  it("moves completed top-level todos and their subtrees under a Completed separator", () => {
    const r = render(set(todos, true));
    expect(rowTitles(r)).toEqual(["Alpha", "Alpha sub", "Gamma", "Beta", "Beta sub"]);
    expect(smallTexts(r)).toContain("Completed (1)");
    const order = elements(r.svg, "text").map((n) => n.text);
    expect(order.indexOf("Completed (1)")).toBe(order.indexOf("Beta") - 1);
  });

  it("leaves out the separator when maxItems cuts before the completed section", () => {
    const r = render(set(todos, true), { maxItems: "3" });
    expect(rowTitles(r)).toEqual(["Alpha", "Alpha sub", "Gamma"]);
    expect(smallTexts(r)).toEqual(expect.arrayContaining(["+ 2 more"]));
    expect(smallTexts(r).some((t) => t.startsWith("Completed"))).toBe(false);
  });

  it("sorts siblings by sortOrder whatever the input order", () => {
    const r = render(set([todo("p", false, null, 0), todo("second", false, "p", 2), todo("first", false, "p", 1)]));
    expect(rowTitles(r)).toEqual(["p", "first", "second"]);
  });

  it("indents each level by the same step", () => {
    const r = render(set([todo("L0"), todo("L1", false, "L0"), todo("L2", false, "L1"), todo("L3", false, "L2")]));
    const xs = r.rows.map((n) => Number(n.attrs.x));
    const steps = xs.slice(1).map((x, i) => x - xs[i]!);
    expect(steps[0]).toBeGreaterThan(0);
    expect(new Set(steps).size).toBe(1);
  });

  it("shows todos with a missing parent or a parent cycle at the top level instead of dropping them", () => {
    const r = render(set([todo("orphan", false, "gone"), todo("a", false, "b", 1), todo("b", false, "a", 2), todo("c", false, "a", 0)]));
    expect(rowTitles(r).sort()).toEqual(["a", "b", "c", "orphan"]);
  });
});

describe("spec 2 section 4.4 themes and color overrides", () => {
  const background = (r: Rendered) => elements(r.svg, "rect")[0]!.attrs.fill;
  const textFill = (r: Rendered) => elements(r.svg, "g")[0]!.attrs.fill;

  it("uses dark colors for theme=dark and light for anything else", () => {
    const input = set(numbered(3));
    const dark = render(input, { theme: "dark" });
    const light = render(input);
    expect(background(dark)).toBe("#0d1117");
    expect(textFill(dark)).toBe("#e6edf3");
    expect(background(light)).toBe("#ffffff");
    expect(renderTodoList(input, { theme: "neon" })).toBe(renderTodoList(input, { theme: "light" }));
  });

  it("applies valid overrides", () => {
    const r = render(set([todo("done", true)]), { bgColor: "#102030", textColor: "rebeccapurple", checkColor: "rgb(1,2,3)", borderColor: "hsl(0,0%,50%)" });
    expect(background(r)).toBe("#102030");
    expect(elements(r.svg, "rect")[0]!.attrs.stroke).toBe("hsl(0,0%,50%)");
    expect(textFill(r)).toBe("rebeccapurple");
    expect(elements(r.svg, "rect").some((n) => n.attrs.fill === "rgb(1,2,3)")).toBe(true);
  });

  it("falls back to the theme for invalid overrides instead of injecting them", () => {
    const input = set(numbered(4), true);
    for (const value of ['red" onload="alert(1)', "url(javascript:alert(1))", "constructor", "#12", "var(--x)", "</svg><script>"]) {
      const query = { bgColor: value, textColor: value, checkColor: value, borderColor: value };
      expect(renderTodoList(input, query)).toBe(renderTodoList(input, {}));
      expect(renderTodoList(input, { ...query, theme: "dark" })).toBe(renderTodoList(input, { theme: "dark" }));
    }
  });
});

describe("spec 2 section 4.4 title, showProgress and long titles", () => {
  it("replaces the heading with title and hides it when title is empty", () => {
    expect(render(set(numbered(2)), { title: "This week" }).heading?.text).toBe("This week");
    const hidden = render(set(numbered(2)), { title: "" });
    expect(hidden.heading).toBeUndefined();
    expect(elements(hidden.svg, "title")[0]!.text).toBe("Chores: 1 of 2 done");
  });

  it("hides the summary and bar when showProgress=false", () => {
    const shown = render(set(numbered(2)));
    const hidden = render(set(numbered(2)), { showProgress: "false" });
    expect(smallTexts(hidden).some((t) => t.includes("done"))).toBe(false);
    expect(elements(hidden.svg, "rect").length).toBe(elements(shown.svg, "rect").length - 2);
    expect(renderTodoList(set(numbered(2)), { showProgress: "no" })).toBe(renderTodoList(set(numbered(2)), {}));
  });

  it("truncates long titles with an ellipsis so they fit the width", () => {
    for (const [width, fontSize] of [
      ["200", "10"],
      ["200", "24"],
      ["333", "14"],
      ["1000", "17"],
    ] as const) {
      const title = "Remember to water the plants on the balcony ".repeat(8);
      const r = render(set([todo("a", false, null, 0, title), todo("b", false, "a", 0, title)]), { width, fontSize });
      for (const row of r.rows) {
        expect(row.text.endsWith("\u2026")).toBe(true);
        expect(title.startsWith(row.text.slice(0, -1))).toBe(true);
        const measured = (measure(row.text, { font: "11px Verdana" }) * r.fontSize) / 11;
        expect(Number(row.attrs.x) + measured).toBeLessThanOrEqual(r.width);
      }
      expect(r.heading?.text).toBe("Chores");
    }
  });

  it("keeps text inside the image for deeply nested todos at the smallest width", () => {
    const chain = Array.from({ length: 30 }, (_, i) => todo(`n${i}`, false, i === 0 ? null : `n${i - 1}`, 0, `nested title ${i}`));
    const r = render(set(chain), { width: "200", fontSize: "24" });
    for (const row of r.rows) expect(Number(row.attrs.x)).toBeLessThan(r.width / 2);
  });
});

// XML 1.0 cannot carry most control characters, lone surrogates or U+FFFE/U+FFFF, so
// they are dropped, C1 controls too; whitespace runs collapse and ends are trimmed.
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
// Either the whole text, or a prefix of it followed by an ellipsis.
function expectShownAs(shown: string, raw: string) {
  const expected = expectedText(raw);
  if (shown !== expected) {
    expect(shown.endsWith("\u2026")).toBe(true);
    expect(expected.startsWith(shown.slice(0, -1))).toBe(true);
  }
}

const hostileText = hostileTextOf(20, 60);

describe("checklist text is always escaped", () => {
  it("yields well-formed XML whose text reads back as the sanitized, possibly truncated, input", () => {
    fc.assert(
      fc.property(
        hostileText,
        fc.array(fc.record({ title: hostileText, completed: fc.boolean() }), { maxLength: 8 }),
        fc.option(hostileText),
        fc.constantFrom(undefined, "200", "500"),
        (name, items, title, width) => {
          const todos = items.map((item, i) => todo(`id${i}`, item.completed, null, i, item.title));
          const r = render(set(todos, false, name), { title: title ?? undefined, width });
          expect(r.rows).toHaveLength(todos.length);
          for (const [i, row] of r.rows.entries()) expectShownAs(row.text, items[i]!.title);
          const heading = expectedText(title ?? name);
          if (heading === "") expect(r.heading).toBeUndefined();
          else expectShownAs(r.heading!.text, title ?? name);
          const done = items.filter((item) => item.completed).length;
          const label = `${expectedText(name) || "Checklist"}: ${done} of ${items.length} done`;
          expect(elements(r.svg, "title")[0]!.text).toBe(label);
          expect(r.svg.attrs["aria-label"]).toBe(label);
          expect(elements(r.svg, "script")).toHaveLength(0);
        },
      ),
      { numRuns: 300 },
    );
  });

  it("keeps hostile query values out of attributes", () => {
    fc.assert(
      fc.property(hostileText, hostileText, hostileText, (color, width, fontSize) => {
        const svg = parseSvg(renderTodoList(set(numbered(3)), { bgColor: color, textColor: color, width, fontSize, maxItems: width }));
        expect(descendants(svg).some((n) => Object.keys(n.attrs).some((a) => a.startsWith("on")))).toBe(false);
      }),
      { numRuns: 200 },
    );
  });
});
