import { parseFailed } from "./import-export.errors.ts";
import { cleanText } from "../../shared/text.ts";
import { isValidTimezone } from "../../settings/validation/settings-fields.ts";
import { isDueDate, isDueTime } from "../../contract/due-dates.ts";
import { DEFAULT_SET_NAME, importedLine, MAX_DEPTH, MAX_IMPORTED_ITEMS, SET_DEFAULTS } from "./import-rules.ts";
import { dueOf, type SetSnapshot, type TreeComment, type TreeTodo } from "./tree.ts";

type Reading = { includeComments: boolean; count: number };
type Fields = Record<string, unknown>;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
// Spec 2 section 2.1: renewTime is `HH:MM`, 24-hour.
const HH_MM = /^(?:[01]\d|2[0-3]):[0-5]\d$/;
const ISO_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:\d{2})$/;

const isFields = (value: unknown): value is Fields => typeof value === "object" && value !== null && !Array.isArray(value);
const isBoolean = (value: unknown): value is boolean => typeof value === "boolean";
const isText = (value: unknown): value is string => typeof value === "string";
const isNonEmpty = (value: unknown): value is string => typeof value === "string" && value.trim() !== "";

function fail(path: string, problem: string): never {
  throw parseFailed(`${path}: ${problem}`);
}

/** The value at `key` if it passes `check`, `fallback` when absent or null, else a parse failure. */
function readField<T>(fields: Fields, key: string, path: string, check: (value: unknown) => value is T, problem: string, fallback: T): T {
  const value = fields[key];
  if (value === undefined || value === null) return fallback;
  return check(value) ? value : fail(`${path}${key}`, problem);
}

function readRequired<T>(fields: Fields, key: string, path: string, check: (value: unknown) => value is T, problem: string): T {
  return check(fields[key]) ? (fields[key] as T) : fail(`${path}${key}`, problem);
}

// The same rule as PATCH of a set: an IANA name, or empty for the team's default (spec 2 section 2.1).
const isTimezone = (value: unknown): value is string => value === "" || isValidTimezone(value);

const isDateTime = (value: unknown): value is string => typeof value === "string" && ISO_DATE_TIME.test(value) && !Number.isNaN(Date.parse(value));

function readComment(value: unknown, path: string): TreeComment {
  if (!isFields(value)) return fail(path, "must be an object");
  const author = readField<string | null>(value, "author", `${path}.`, isText, "must be a string or null", null);
  const body = cleanText(readRequired(value, "body", `${path}.`, isText, "must be a string"));
  const createdAt = readRequired(value, "createdAt", `${path}.`, isDateTime, "must be an ISO 8601 date-time");
  return { author, body, createdAt };
}

function readTodo(value: unknown, path: string, depth: number, reading: Reading): TreeTodo {
  if (!isFields(value)) return fail(path, "must be an object");
  if (++reading.count > MAX_IMPORTED_ITEMS) return fail(path, `more than ${MAX_IMPORTED_ITEMS} todos`);
  const title = importedLine(readRequired(value, "title", `${path}.`, isNonEmpty, "must be a non-empty string"), `${path}.title`);
  if (title === "") return fail(`${path}.title`, "must be a non-empty string");
  const completed = readField(value, "completed", `${path}.`, isBoolean, "must be a boolean", false);
  const dueDate = readField<string | null>(value, "dueDate", `${path}.`, isDueDate, "must be a date as YYYY-MM-DD", null);
  const dueTime = readField<string | null>(value, "dueTime", `${path}.`, isDueTime, "must be a time as HH:MM (24-hour)", null);
  if (dueTime !== null && dueDate === null) return fail(`${path}.dueTime`, "needs a dueDate");
  const fields = { title, completed, ...dueOf({ dueDate, dueTime }) };
  const children = readTodos(value.children ?? [], `${path}.children`, depth + 1, reading);
  if (!reading.includeComments) return { ...fields, children };
  const list = value.comments ?? [];
  if (!Array.isArray(list)) return fail(`${path}.comments`, "must be an array");
  const comments = list.map((comment, i) => readComment(comment, `${path}.comments[${i}]`));
  return { ...fields, comments, children };
}

/** A list of todos at `depth` (roots are 1), checked field by field; the failure names the path. */
function readTodos(value: unknown, path: string, depth: number, reading: Reading): TreeTodo[] {
  if (!Array.isArray(value)) return fail(path, "must be an array");
  if (value.length > 0 && depth > MAX_DEPTH) return fail(path, `nested deeper than ${MAX_DEPTH} levels`);
  return value.map((todo, i) => readTodo(todo, `${path}[${i}]`, depth, reading));
}

/** A whole exported set, or (spec 2 section 4.1) a bare array of todos named `Imported Set`. */
export function readSnapshot(value: unknown, includeComments: boolean): SetSnapshot {
  const reading = { includeComments, count: 0 };
  if (Array.isArray(value)) {
    const todos = readTodos(value, "todos", 1, reading);
    return { name: DEFAULT_SET_NAME, ...SET_DEFAULTS, todos };
  }
  if (!isFields(value)) return fail("content", "must be an object or an array of todos");
  const id = readField<string | undefined>(value, "id", "", (v): v is string => isText(v) && UUID.test(v), "must be a UUID", undefined);
  return {
    ...(id === undefined ? {} : { id }),
    // A file that names no set gets the default Markdown gets (spec 2 section 4.1); `setName` overrides either.
    name:
      importedLine(readField(value, "name", "", isNonEmpty, "must be a non-empty string", DEFAULT_SET_NAME), "name") ||
      fail("name", "must be a non-empty string"),
    autoRenew: readField(value, "autoRenew", "", isBoolean, "must be a boolean", false),
    renewTime: readField(value, "renewTime", "", (v): v is string => isText(v) && HH_MM.test(v), "must be HH:MM (24-hour)", "00:00"),
    timezone: readField(value, "timezone", "", isTimezone, "must be an IANA time zone or empty", ""),
    splitCompleted: readField(value, "splitCompleted", "", isBoolean, "must be a boolean", false),
    todos: readTodos(value.todos ?? [], "todos", 1, reading),
  };
}
