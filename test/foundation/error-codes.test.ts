import { describe, expect, it } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import type { ErrorStyle } from "../../src/shared/error-style.ts";
import { AppError } from "../../src/shared/errors.ts";
import type { LinkAction } from "../../src/workspace/storage/workspace.errors.ts";
import type { TodoRefusal } from "../../src/workspace/todos/todos.errors.ts";

/*
 * Every error the app can throw is made by a factory in an error file (`<domain>.errors.ts`, and
 * the HTTP core's shared/errors.ts), and carries a stable machine code: snake_case, the same for
 * one meaning (one status, one text), never reworded with the text. Clients branch on the code.
 */
const ROOT = join(import.meta.dir, "../..");
const SNAKE = /^[a-z][a-z0-9]*(_[a-z0-9]+)*$/;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(entry.name) ? [relative(ROOT, path)] : [];
  });
}
const ERROR_FILES = [...sourceFiles(join(ROOT, "src")).filter((f) => f.endsWith(".errors.ts")), "src/shared/errors.ts"];

// Every value of the unions some factories take: a missing one is a type error here.
const STYLES: Record<ErrorStyle, true> = { spec: true, rfc6749: true, rfc7591: true };
const LINK_ACTIONS: Record<LinkAction, true> = { viewing: true, "creating todos": true, editing: true, completing: true, reordering: true, deleting: true };
const REFUSALS: Record<TodoRefusal, true> = {
  create_todos: true,
  add_subtodos: true,
  title: true,
  completed: true,
  sortOrder: true,
  due: true,
  delete: true,
  reorder: true,
};

/** Arguments for the factories whose code or text depends on them; every other gets placeholders. */
const SAMPLES: Record<string, unknown[][]> = {
  malformedRequest: Object.keys(STYLES).map((style) => [style, "the field at fault"]),
  noSuchRoute: Object.keys(STYLES).map((style) => [style]),
  removedMeanwhile: Object.keys(STYLES).map((style) => [style]),
  linkRefusal: Object.keys(LINK_ACTIONS).map((what) => [what]),
  teamsWithoutOwner: [[[{ id: "t1", name: "Team" }]]],
  refused: Object.keys(REFUSALS).flatMap((refusal) => [
    [{ kind: "member" }, refusal],
    [{ kind: "share_link" }, refusal],
  ]),
};
/** Builders of errors from a code given by the caller (or from another error), and the class: not errors of their own. */
const BUILDERS = new Set(["AppError", "rfcError", "describedError", "ImportError", "expectedRefusal"]);

async function everyError(): Promise<{ made: string; error: AppError }[]> {
  const errors: { made: string; error: AppError }[] = [];
  for (const file of ERROR_FILES) {
    const module = (await import(join(ROOT, file))) as Record<string, unknown>;
    for (const [name, factory] of Object.entries(module)) {
      if (typeof factory !== "function" || BUILDERS.has(name)) continue;
      const calls = SAMPLES[name] ?? [Array.from({ length: Math.max(1, factory.length) }, () => "sample")];
      for (const args of calls) errors.push({ made: `${file}: ${name}(${args.map((a) => JSON.stringify(a)).join(", ")})`, error: factory(...args) });
    }
  }
  return errors;
}

describe("error codes", () => {
  it("errors are made only in error files", () => {
    const elsewhere = sourceFiles(join(ROOT, "src"))
      .filter((f) => !ERROR_FILES.includes(f))
      .filter((f) => /new AppError\(|describedError\(|rfcError\(|extends AppError/.test(readFileSync(join(ROOT, f), "utf8")));
    expect(elsewhere).toEqual([]);
  });

  it("every function an error file exports makes an AppError with a snake_case code", async () => {
    const errors = await everyError();
    expect(errors.length).toBeGreaterThan(90);
    expect(errors.filter(({ error }) => !(error instanceof AppError)).map(({ made }) => made)).toEqual([]);
    expect(errors.filter(({ error }) => !SNAKE.test(error.code)).map(({ made, error }) => `${made}: ${error.code}`)).toEqual([]);
    const rfcWordings = errors.flatMap(({ error }) => error.extra.rfc6749?.error ?? []);
    expect(rfcWordings.filter((code) => !SNAKE.test(code))).toEqual([]);
  });

  it("an RFC 6749-style error is its own code and has a description; a spec text has a code beside it", async () => {
    for (const { made, error } of await everyError()) {
      if (error.code === error.error) expect({ made, description: typeof error.extra.description }).toEqual({ made, description: "string" });
      else expect({ made, text: SNAKE.test(error.error) }).toEqual({ made, text: false });
    }
  });

  it("one code, one meaning: the same status and text wherever it is made (the part after a colon names the instance)", async () => {
    const meanings = new Map<string, Set<string>>();
    for (const { error } of await everyError()) {
      if (error.code === error.error) continue; // an RFC 6749 code: its descriptions say the instance
      const meaning = `${error.status} ${error.error.split(": ")[0]}`;
      meanings.set(error.code, (meanings.get(error.code) ?? new Set()).add(meaning));
    }
    expect([...meanings].filter(([, m]) => m.size > 1).map(([code, m]) => `${code}: ${[...m].join(" | ")}`)).toEqual([]);
  });
});
