import { yaml } from "../../shared/yaml.ts";
import { parseFailed } from "./import-export.errors.ts";
import { readSnapshot } from "./structured-read.ts";
import { dueOf, type SetSnapshot, type TreeTodo } from "./tree.ts";

export type StructuredFormat = "json" | "yaml";

function toDocument(todo: TreeTodo, includeComments: boolean): object {
  const children = todo.children.map((child) => toDocument(child, includeComments));
  // A todo without a due writes no due keys: files from before due dates stay the same.
  const fields = { title: todo.title, completed: todo.completed, ...dueOf(todo) };
  if (!includeComments) return { ...fields, children };
  const comments = (todo.comments ?? []).map(({ author, body, createdAt }) => ({ author, body, createdAt }));
  return { ...fields, comments, children };
}

/** The set with every field, its tree in order and (when asked) comments; JSON pretty-printed. */
export function exportStructured(set: SetSnapshot, format: StructuredFormat, { includeComments }: { includeComments: boolean }): string {
  const { id, name, autoRenew, renewTime, timezone, splitCompleted } = set;
  const document = {
    ...(id === undefined ? {} : { id }),
    ...{ name, autoRenew, renewTime, timezone, splitCompleted },
    todos: set.todos.map((todo) => toDocument(todo, includeComments)),
  };
  if (format === "json") return `${JSON.stringify(document, null, 2)}\n`;
  // Written as YAML 1.1 so strings a 1.1 reader would retype (`07:30`, `yes`) come out quoted;
  // the output is equally valid 1.2. No folding: one title, one line.
  return yaml().stringify(document, { version: "1.1", lineWidth: 0 });
}

function decode(content: string, format: StructuredFormat): unknown {
  try {
    return format === "json" ? JSON.parse(content.replace(/^\uFEFF/, "")) : yaml().parse(content);
  } catch (error) {
    // Includes a RangeError from absurdly deep nesting: still just unparsable content.
    throw parseFailed(`not valid ${format}: ${error instanceof Error ? error.message : String(error)}`);
  }
}

/** The inverse of exportStructured, every field checked; also accepts a bare array of todos. */
export function parseStructured(content: string, format: StructuredFormat, { includeComments }: { includeComments: boolean }): SetSnapshot {
  return readSnapshot(decode(content, format), includeComments);
}
