import { describe, expect, it } from "bun:test";
import { AppError } from "../../src/shared/errors.ts";
import { assertUniqueSiblings, exportSet, ImportError, parseImport } from "../../src/workspace/import-export/import-export.ts";
import type { SetSnapshot, TreeTodo } from "../../src/workspace/import-export/tree.ts";

const todo = (title: string, completed = false, children: TreeTodo[] = []): TreeTodo => ({ title, completed, children });
const md = (content: string, includeComments = false) => parseImport("md", content, { includeComments });

const groceries: SetSnapshot = {
  id: "0b8f0c3e-1d2a-4c5b-9e8f-7a6b5c4d3e2f",
  name: "Groceries & Co",
  autoRenew: true,
  renewTime: "07:30",
  timezone: "Europe/Paris",
  splitCompleted: true,
  todos: [todo("Milk", false, [todo("Oat", true, [todo("Barista edition")])]), todo("Bread", true)],
};

/** The error a call throws, so tests can assert its exact public string and status. */
function caught(run: () => unknown): ImportError {
  try {
    run();
  } catch (error) {
    if (error instanceof ImportError) return error;
    throw error;
  }
  throw new Error("expected an ImportError");
}

describe("spec 2 section 4.1 export", () => {
  it("writes Markdown as a GFM task list with two spaces per level", () => {
    expect(exportSet(groceries, "md", { includeComments: false })).toEqual({
      format: "md",
      fileName: "groceries-co.md",
      content: "# Groceries & Co\n\n- [ ] Milk\n  - [x] Oat\n    - [ ] Barista edition\n- [x] Bread\n",
    });
  });

  it("writes each comment as quote lines under its todo, a multi-line body quoted line by line", () => {
    const comments = [
      { author: "alice", body: "oat please\n\n**bob** (2024-01-01T00:00:00.000Z): not a header", createdAt: "2024-05-01T10:00:00.000Z" },
      { author: null, body: "ok", createdAt: "2024-05-02T09:30:00.000Z" },
    ];
    const set = { ...groceries, todos: [{ ...todo("Milk", false, [todo("Oat")]), comments }] };
    expect(exportSet(set, "md", { includeComments: true }).content).toBe(
      [
        "# Groceries & Co",
        "",
        "- [ ] Milk",
        "  > **alice** (2024-05-01T10:00:00.000Z): oat please",
        "  >",
        "  > \\**bob** (2024-01-01T00:00:00.000Z): not a header",
        "",
        "  > (2024-05-02T09:30:00.000Z): ok",
        "  - [ ] Oat",
        "",
      ].join("\n"),
    );
    expect(exportSet(set, "md", { includeComments: false }).content).not.toContain(">");
  });

  it("escapes titles that would otherwise read as a checkbox, heading, quote, bullet or formatting", () => {
    const set = {
      ...groceries,
      name: "Sprint #4",
      todos: [todo("[x] done?"), todo("# not a heading"), todo("> not a quote"), todo("- not a bullet"), todo("*bold* `code` C:\\temp")],
    };
    expect(exportSet(set, "md", { includeComments: false }).content).toBe(
      "# Sprint \\#4\n\n- [ ] \\[x\\] done?\n- [ ] \\# not a heading\n- [ ] \\> not a quote\n- [ ] \\- not a bullet\n- [ ] \\*bold\\* \\`code\\` C:\\\\temp\n",
    );
    expect(md(exportSet(set, "md", { includeComments: false }).content)).toEqual({
      ...set,
      id: undefined,
      name: "Imported Set",
      autoRenew: false,
      renewTime: "00:00",
      timezone: "",
      splitCompleted: false,
    });
  });

  it("writes JSON pretty-printed and YAML with every set field", () => {
    const json = exportSet(groceries, "json", { includeComments: false });
    expect(json.fileName).toBe("groceries-co.json");
    expect(json.content).toStartWith('{\n  "id": "0b8f0c3e-1d2a-4c5b-9e8f-7a6b5c4d3e2f",\n  "name": "Groceries & Co",\n  "autoRenew": true,');
    expect(JSON.parse(json.content)).toEqual(groceries);
    const yaml = exportSet(groceries, "yaml", { includeComments: false });
    expect(yaml.fileName).toBe("groceries-co.yaml");
    // Quoted, so a YAML 1.1 reader does not take 07:30 for the number 450.
    expect(yaml.content).toContain('renewTime: "07:30"');
  });

  it("names the file after a safe slug of the set name, never empty", () => {
    const fileName = (name: string) => exportSet({ ...groceries, name }, "md", { includeComments: false }).fileName;
    expect(fileName("Café Crème / Week 12")).toBe("cafe-creme-week-12.md");
    expect(fileName("../../etc/passwd")).toBe("etc-passwd.md");
    expect(fileName("日本語")).toBe("set.md");
    expect(fileName("x".repeat(300))).toBe(`${"x".repeat(80)}.md`);
  });
});

describe("spec 2 section 4.1 import: tolerant Markdown", () => {
  it("reads *, - and + bullets, [x], [X], [ ] and plain bullets as incomplete todos", () => {
    expect(md("* [x] One\n+ [X] Two\n- [ ] Three\n- Four\n1. [x] Five").todos).toEqual([
      todo("One", true),
      todo("Two", true),
      todo("Three"),
      todo("Four"),
      todo("Five", true),
    ]);
  });

  it("nests by indentation relative to the parent: 2 or 4 spaces, tabs, blank lines and CRLF", () => {
    const pasted = "- a\r\n    - b\r\n\r\n        - c\r\n    - d\r\n\t- e\r\n  - f\r\n- g\r\n";
    expect(md(pasted).todos).toEqual([todo("a", false, [todo("b", false, [todo("c")]), todo("d"), todo("e"), todo("f")]), todo("g")]);
    expect(md("- a\n\t- b\n\t\t- c\n- d").todos).toEqual([todo("a", false, [todo("b", false, [todo("c")])]), todo("d")]);
  });

  it("names every Markdown import `Imported Set`, whatever its headings, with the section 2.1 defaults", () => {
    expect(md("# Weekly ##\n\n- [ ] Trim   ")).toEqual({
      name: "Imported Set",
      autoRenew: false,
      renewTime: "00:00",
      timezone: "",
      splitCompleted: false,
      todos: [todo("Trim")],
    });
    expect(md("- [ ] a").name).toBe("Imported Set");
    expect(md("# Empty list")).toMatchObject({ name: "Imported Set", todos: [] });
    // A heading is never a name, so its length does not matter either.
    expect(md(`# ${"x".repeat(1001)}\n- [ ] a`)).toMatchObject({ name: "Imported Set", todos: [todo("a")] });
  });

  it("never makes a todo of a heading; a heading ends the nesting of the items above it", () => {
    expect(md("# Week 1\n- [ ] a\n  - [ ] b\n## Week 2\n  - [x] c\n### \n- d").todos).toEqual([todo("a", false, [todo("b")]), todo("c", true), todo("d")]);
  });

  it("ignores prose, thematic breaks and quotes when comments are not asked for", () => {
    expect(md("Notes for the week:\n\n- [ ] a\n  > a comment\n---\nThe end.")).toEqual(md("- [ ] a"));
    expect(md("- [ ] a\n  > **al** (2024-05-01T10:00:00.000Z): hi").todos[0]).not.toHaveProperty("comments");
  });

  it("reads comments back, and stamps a pasted quote without a header with the time passed in", () => {
    const content = "- [ ] a\n  > **al** (2024-05-01T10:00:00.000Z): hi\n  > there\n\n  > just a note\n  - [ ] b\n";
    const parsed = parseImport("md", content, { includeComments: true, now: new Date("2025-01-02T03:04:05Z") });
    expect(parsed.todos).toEqual([
      {
        title: "a",
        completed: false,
        comments: [
          { author: "al", body: "hi\nthere", createdAt: "2024-05-01T10:00:00.000Z" },
          { author: null, body: "just a note", createdAt: "2025-01-02T03:04:05.000Z" },
        ],
        children: [{ title: "b", completed: false, comments: [], children: [] }],
      },
    ]);
  });

  it("refuses a list item with no title, and text with neither heading nor list", () => {
    expect(caught(() => md("- [ ] a\n- [ ]")).error).toBe("Failed to parse import content");
    expect(caught(() => md("just some words")).error).toBe("Failed to parse import content");
  });
});

describe("spec 2 section 4.1 import: JSON and YAML", () => {
  it("round-trips every field, comments included", () => {
    const set = { ...groceries, todos: [{ ...todo("Milk"), comments: [{ author: "al", body: "a\nb", createdAt: "2024-05-01T10:00:00.000Z" }] }] };
    for (const format of ["json", "yaml"] as const) {
      expect(parseImport(format, exportSet(set, format, { includeComments: true }).content, { includeComments: true })).toEqual(set);
    }
  });

  it("accepts a bare array of todos as `Imported Set`, missing optional fields taking defaults", () => {
    expect(parseImport("json", '[{"title":" a ","children":[{"title":"b","completed":true}]}]', { includeComments: false })).toEqual({
      name: "Imported Set",
      autoRenew: false,
      renewTime: "00:00",
      timezone: "",
      splitCompleted: false,
      todos: [todo("a", false, [todo("b", true)])],
    });
    expect(parseImport("yaml", "name: Chores\ntodos:\n  - title: Dishes\n", { includeComments: true }).todos).toEqual([{ ...todo("Dishes"), comments: [] }]);
  });

  it("names a set whose file names none `Imported Set`, as Markdown and a bare array", () => {
    for (const [format, content] of [
      ["json", '{"todos":[{"title":"a"}]}'],
      ["json", '{"name":null,"autoRenew":true}'],
      ["yaml", "todos:\n  - title: a\n"],
    ] as const)
      expect(parseImport(format, content, { includeComments: false }).name).toBe("Imported Set");
  });

  it("drops comments when they are not asked for", () => {
    const content = '{"name":"x","todos":[{"title":"a","comments":[{"body":"hi"}]}]}';
    expect(parseImport("json", content, { includeComments: false }).todos).toEqual([todo("a")]);
  });

  const invalid: [string, string][] = [
    ["name a number", '{"name":3}'],
    ["name empty", '{"name":"  "}'],
    ["id not a UUID", '{"id":"abc","name":"x"}'],
    ["autoRenew not a boolean", '{"name":"x","autoRenew":"yes"}'],
    ["renewTime 24:00", '{"name":"x","renewTime":"24:00"}'],
    ["renewTime 7:30", '{"name":"x","renewTime":"7:30"}'],
    ["timezone unknown", '{"name":"x","timezone":"Mars/Olympus"}'],
    ["todos not an array", '{"name":"x","todos":{}}'],
    ["title empty", '[{"title":" "}]'],
    ["title a number", '[{"title":3}]'],
    ["completed a string", '[{"title":"a","completed":"true"}]'],
    ["children an object", '[{"title":"a","children":{}}]'],
    ["comment without body", '[{"title":"a","comments":[{"createdAt":"2024-05-01T10:00:00.000Z"}]}]'],
    ["comment date not ISO", '[{"title":"a","comments":[{"body":"b","createdAt":"yesterday"}]}]'],
    ["a scalar", '"hello"'],
    ["not JSON at all", "{name: x"],
  ];
  for (const [what, content] of invalid) {
    it(`refuses ${what} with \`Failed to parse import content\``, () => {
      const error = caught(() => parseImport("json", content, { includeComments: true }));
      expect(error.message).toBe("Failed to parse import content");
      expect(error.status).toBe(400);
    });
  }

  it("refuses YAML that is not valid, or holds several documents", () => {
    expect(caught(() => parseImport("yaml", "name: [unclosed", { includeComments: false })).error).toBe("Failed to parse import content");
    expect(caught(() => parseImport("yaml", "- title: a\n---\n- title: b", { includeComments: false })).error).toBe("Failed to parse import content");
  });
});

describe("spec 2 section 4.1 import limits", () => {
  const nested = (depth: number): TreeTodo => (depth === 1 ? todo("leaf") : todo(`level ${depth}`, false, [nested(depth - 1)]));

  it("accepts nesting 20 deep and refuses 21", () => {
    const content = (depth: number) => JSON.stringify({ name: "deep", todos: [nested(depth)] });
    expect(parseImport("json", content(20), { includeComments: false }).todos).toHaveLength(1);
    expect(caught(() => parseImport("json", content(21), { includeComments: false })).reason).toContain("deeper than 20");
    const markdown = Array.from({ length: 21 }, (_, i) => `${"  ".repeat(i)}- t`).join("\n");
    expect(caught(() => md(markdown)).reason).toContain("deeper than 20");
  });

  it("refuses more than 10,000 todos and content over 2 MB", () => {
    const many = Array.from({ length: 10_001 }, (_, i) => `- t${i}`).join("\n");
    expect(caught(() => md(many)).reason).toContain("more than 10000 todos");
    expect(caught(() => md(`# big\n${"x".repeat(2 * 1024 * 1024)}`)).reason).toContain("bytes");
  });
});

describe("spec 2 section 4.1 set error table", () => {
  it("answers empty or whitespace-only content with `Content is required`", () => {
    for (const content of ["", "  \n\t\r\n"]) {
      const error = caught(() => parseImport("json", content, { includeComments: false }));
      expect([error.message, error.error, error.status]).toEqual(["Content is required", "Content is required", 400]);
      expect(error).toBeInstanceOf(AppError);
    }
  });

  it("answers an unknown format with `Failed to parse import content`", () => {
    expect(caught(() => parseImport("csv", "a,b", { includeComments: false })).message).toBe("Failed to parse import content");
  });

  it("answers duplicate sibling titles (trimmed, exact case) with the 409 string naming the title", () => {
    const error = caught(() => md("- Milk\n  - Oat\n  - Soy\n  -  Oat "));
    expect([error.message, error.status]).toEqual(["Todo item title already exists among sibling todos: Oat", 409]);
    expect(caught(() => parseImport("yaml", "- title: a\n- title: ' a'", { includeComments: false })).message).toBe(
      "Todo item title already exists among sibling todos: a",
    );
    expect(md("- Oat\n- oat\n- Milk\n  - Oat").todos).toHaveLength(3);
  });

  it("lets the import service check appended roots against the set's existing root titles", () => {
    const todos = [todo("Bread", false, [todo("Milk")])];
    expect(() => assertUniqueSiblings(todos, ["Milk", "Eggs"])).not.toThrow();
    expect(caught(() => assertUniqueSiblings(todos, ["Eggs", " Bread "])).message).toBe("Todo item title already exists among sibling todos: Bread");
  });
});
