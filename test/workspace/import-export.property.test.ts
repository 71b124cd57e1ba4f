import { describe, expect, it } from "bun:test";
import fc from "fast-check";
import { exportSet, parseImport } from "../../src/workspace/import-export/import-export.ts";
import { cleanLine, cleanText } from "../../src/shared/text.ts";
import type { SetSnapshot, TreeComment, TreeTodo } from "../../src/workspace/import-export/tree.ts";

// Pieces that collide with the Markdown dialect: checkboxes, headings, quotes, bullets, escapes,
// emphasis, entities, comment headers, whitespace and non-ASCII text.
const tricky = fc.constantFrom(
  "[x]",
  "[ ]",
  "[X]",
  "#",
  "# ",
  ">",
  "> ",
  "- ",
  "-",
  "* ",
  "+ ",
  "1. ",
  "2)",
  "\\",
  "\\*",
  "`",
  "_",
  "*",
  "**",
  "~",
  "<b>",
  "&amp;",
  "(2024-01-01T00:00:00.000Z): ",
  "**a** ",
  " ",
  "\t",
  "[",
  "]",
  "é",
  "日本",
  "🙂",
  "\u2028",
  "\u00a0",
  "(due: 2026-12-05)",
  " (due: 2026-12-05 09:30)",
  "(due:",
  "(due: soon)",
  ")",
);
const text = fc.array(fc.oneof(tricky, fc.string({ unit: "grapheme", maxLength: 6 })), { minLength: 1, maxLength: 5 }).map((parts) => parts.join(""));
// Titles and names are one non-empty line as the API stores it (cleanLine: no control characters, trimmed).
const line = text.map(cleanLine).filter((value) => value !== "");

const comment: fc.Arbitrary<TreeComment> = fc.record({
  author: fc.option(line, { nil: null }),
  // As the API stores a comment (cleanText): several lines, trimmed, never empty.
  body: fc
    .array(
      text.map((value) => value.replace(/[\r\n]/g, "")),
      { minLength: 1, maxLength: 3 },
    )
    .map((lines) => cleanText(lines.join("\n")))
    .filter((body) => body !== ""),
  createdAt: fc.date({ min: new Date("2000-01-01"), max: new Date("2099-12-31"), noInvalidDate: true }).map((date) => date.toISOString()),
});

const pad = (n: number, width = 2) => String(n).padStart(width, "0");
// A due as the API stores it: none, a date, or a date and a time (never a time alone).
const due: fc.Arbitrary<Pick<TreeTodo, "dueDate" | "dueTime">> = fc.oneof(
  fc.constant({}),
  fc
    .tuple(
      fc.date({ min: new Date("1970-01-01"), max: new Date("2199-12-31"), noInvalidDate: true }),
      fc.option(fc.tuple(fc.integer({ min: 0, max: 23 }), fc.integer({ min: 0, max: 59 })), { nil: undefined }),
    )
    .map(([date, time]) => ({ dueDate: date.toISOString().slice(0, 10), ...(time ? { dueTime: `${pad(time[0])}:${pad(time[1])}` } : {}) })),
);

function todoAt(depth: number): fc.Arbitrary<TreeTodo> {
  const children = depth >= 5 ? fc.constant<TreeTodo[]>([]) : siblingsAt(depth + 1);
  return fc
    .tuple(fc.record({ title: line, completed: fc.boolean(), comments: fc.array(comment, { maxLength: 2 }), children }), due)
    .map(([todo, dueFields]) => ({ ...todo, ...dueFields }));
}
// Unique sibling titles, as spec 2 section 2.2 requires of any tree worth exporting.
const siblingsAt = (depth: number) => fc.uniqueArray(todoAt(depth), { selector: (todo) => todo.title, maxLength: depth <= 2 ? 4 : 2 });

const snapshot: fc.Arbitrary<SetSnapshot> = fc.record(
  {
    id: fc.uuid(),
    name: line,
    autoRenew: fc.boolean(),
    renewTime: fc
      .tuple(fc.integer({ min: 0, max: 23 }), fc.integer({ min: 0, max: 59 }))
      .map(([h, m]) => `${String(h).padStart(2, "0")}:${String(m).padStart(2, "0")}`),
    timezone: fc.constantFrom("", "UTC", "Europe/Paris", "America/New_York", "Asia/Kolkata"),
    splitCompleted: fc.boolean(),
    todos: siblingsAt(1),
  },
  { requiredKeys: ["name", "autoRenew", "renewTime", "timezone", "splitCompleted", "todos"] },
);

/** What an export carries: due dates always, comments only when asked for. */
function project(todos: TreeTodo[], includeComments: boolean): TreeTodo[] {
  return todos.map(({ title, completed, dueDate, dueTime, comments, children }) => ({
    title,
    completed,
    ...(dueDate === undefined ? {} : { dueDate }),
    ...(dueTime === undefined ? {} : { dueTime }),
    ...(includeComments ? { comments: comments ?? [] } : {}),
    children: project(children, includeComments),
  }));
}

const roundTrip = (set: SetSnapshot, format: "md" | "json" | "yaml", includeComments: boolean) =>
  parseImport(format, exportSet(set, format, { includeComments }).content, { includeComments });

describe("spec 2 section 4.1: export then import gives back the set", () => {
  it("Markdown keeps the titles, completion, nesting and order, and comments when included; its name is `Imported Set`", () => {
    fc.assert(
      fc.property(snapshot, fc.boolean(), (set, includeComments) => {
        const parsed = roundTrip(set, "md", includeComments);
        // Spec 2 section 4.1: "Markdown default name is `Imported Set`"; the heading an export
        // writes is for people reading the file, and `setName` names the new set.
        expect(parsed.name).toBe("Imported Set");
        expect(parsed.todos).toEqual(project(set.todos, includeComments));
      }),
    );
  });

  it("Markdown: headings of any text, anywhere between the roots, change neither the name nor the todos", () => {
    fc.assert(
      fc.property(snapshot, fc.array(fc.tuple(fc.integer({ min: 1, max: 6 }), text), { maxLength: 4 }), (set, headings) => {
        const content = exportSet(set, "md", { includeComments: false }).content;
        // Before each root item (a line starting with `- `), sometimes a heading of its own.
        const lines = content.split("\n");
        let next = 0;
        const withHeadings = lines.flatMap((l) => {
          const heading = l.startsWith("- ") ? headings[next++] : undefined;
          return heading ? [`${"#".repeat(heading[0])} ${heading[1].replace(/[\r\n\u2028\u2029]/g, "")}`, l] : [l];
        });
        const parsed = parseImport("md", withHeadings.join("\n"), { includeComments: false });
        expect(parsed.name).toBe("Imported Set");
        expect(parsed.todos).toEqual(project(set.todos, false));
      }),
    );
  });

  it("every format keeps each todo's due date and time, and a title ending like `(due: ...)` stays a title", () => {
    const dues = (todos: TreeTodo[]): unknown[] => todos.flatMap((t) => [[t.title, t.dueDate ?? null, t.dueTime ?? null], ...dues(t.children)]);
    fc.assert(
      fc.property(snapshot, fc.constantFrom("md", "json", "yaml"), (set, format) => {
        expect(dues(roundTrip(set, format, false).todos)).toEqual(dues(set.todos));
      }),
    );
  });

  for (const format of ["json", "yaml"] as const) {
    it(`${format.toUpperCase()} keeps the whole snapshot`, () => {
      fc.assert(
        fc.property(snapshot, fc.boolean(), (set, includeComments) => {
          expect(roundTrip(set, format, includeComments)).toEqual({ ...set, todos: project(set.todos, includeComments) });
        }),
      );
    });
  }
});
