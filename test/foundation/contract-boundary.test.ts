import { describe, expect, it } from "bun:test";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";

// The SPA and the server share only src/contract: pure declarations that import nothing else, so
// the browser bundle never pulls in server code and the server never depends on the SPA. The
// answers' schemas (src/contract/api) are TypeBox, which the server validates with and the SPA
// reads only as types: `import type`, so no schema code reaches the browser.
const ROOT = resolve(import.meta.dir, "../..");
const CONTRACT = join(ROOT, "src/contract");
const SCHEMAS = join(CONTRACT, "api");
const SCHEMA_LIBRARY = "@sinclair/typebox";
const IMPORT = /(?:^|\n)\s*(?:import|export)\b[^"'`;]*?\bfrom\s*["']([^"']+)["']|import\(\s*["']([^"']+)["']\s*\)/g;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? sourceFiles(path) : /\.tsx?$/.test(name) ? [path] : [];
  });
}

/** Every module specifier a file imports or re-exports from. */
const specifiersOf = (file: string) => [...readFileSync(file, "utf8").matchAll(IMPORT)].map((m) => (m[1] ?? m[2]) as string);
const inside = (dir: string, path: string) => !relative(dir, path).startsWith("..");

describe("src/contract, the one module the SPA shares with the server", () => {
  it("imports only from inside src/contract (and the schemas TypeBox)", () => {
    const outside = sourceFiles(CONTRACT).flatMap((file) =>
      specifiersOf(file)
        .filter((spec) => !(spec === SCHEMA_LIBRARY && inside(SCHEMAS, file)))
        .filter((spec) => !spec.startsWith(".") || !inside(CONTRACT, resolve(dirname(file), spec)))
        .map((spec) => `${relative(ROOT, file)} imports ${spec}`),
    );
    expect(outside).toEqual([]);
  });

  it("reaches the SPA's bundle only as types: web/src imports the answers' schemas with `import type`", () => {
    const VALUE_IMPORT = /(?:^|\n)\s*import\s+(?!type\b)[^"'`;]*?\bfrom\s*["']([^"']+)["']/g;
    const valued = sourceFiles(join(ROOT, "web/src")).flatMap((file) =>
      [...readFileSync(file, "utf8").matchAll(VALUE_IMPORT)]
        .map((m) => m[1] as string)
        .filter((spec) => spec === SCHEMA_LIBRARY || (spec.startsWith(".") && inside(SCHEMAS, resolve(dirname(file), spec))))
        .map((spec) => `${relative(ROOT, file)} imports ${spec} as a value`),
    );
    expect(valued).toEqual([]);
  });

  it("is the only part of src/ that web/src imports", () => {
    const src = join(ROOT, "src");
    const reaching = sourceFiles(join(ROOT, "web/src")).flatMap((file) =>
      specifiersOf(file)
        .filter((spec) => spec.startsWith("."))
        .map((spec) => resolve(dirname(file), spec))
        .filter((path) => inside(src, path) && !inside(CONTRACT, path))
        .map((path) => `${relative(ROOT, file)} imports ${relative(ROOT, path)}`),
    );
    expect(reaching).toEqual([]);
  });
});
