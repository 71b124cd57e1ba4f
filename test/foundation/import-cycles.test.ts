import { describe, expect, it } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, normalize, relative } from "node:path";

/*
 * No two folders import each other, at any depth, and no file cycle: each folder can be read
 * (and moved) knowing only what it imports. A new feature that needs something from a folder
 * that already imports it puts the shared piece below both instead.
 */
const ROOT = join(import.meta.dir, "../..");
const SPECIFIER = /(?:\bfrom|\bimport)\s*\(?\s*"(\.{1,2}\/[^"]+)"/g;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(entry.name) ? [relative(ROOT, path)] : [];
  });
}

/** Relative imports of every file of `top`, as edges between the units `unit` maps files to. */
function edges(top: string, unit: (file: string) => string): Map<string, Set<string>> {
  const graph = new Map<string, Set<string>>();
  for (const file of sourceFiles(join(ROOT, top))) {
    for (const [, specifier] of readFileSync(join(ROOT, file), "utf8").matchAll(SPECIFIER)) {
      const from = unit(file);
      const to = unit(normalize(join(dirname(file), specifier as string)));
      if (from === to) continue;
      if (!graph.has(from)) graph.set(from, new Set());
      graph.get(from)?.add(to);
    }
  }
  return graph;
}

/** One cycle of the graph, as the path that closes it, or null. */
function cycle(graph: Map<string, Set<string>>): string[] | null {
  const state = new Map<string, "open" | "done">();
  const path: string[] = [];
  const visit = (node: string): string[] | null => {
    if (state.get(node) === "done") return null;
    if (state.get(node) === "open") return [...path.slice(path.indexOf(node)), node];
    state.set(node, "open");
    path.push(node);
    for (const next of graph.get(node) ?? []) {
      const found = visit(next);
      if (found) return found;
    }
    path.pop();
    state.set(node, "done");
    return null;
  };
  for (const node of graph.keys()) {
    const found = visit(node);
    if (found) return found;
  }
  return null;
}

/** The folder `depth` levels below the top (`src/oauth` at 1, `src/oauth/tokens` at 2), or the file's own folder when shallower. */
const folderAt = (depth: number) => (file: string) => {
  const parts = file.split("/");
  return parts.length > depth + 1 ? parts.slice(0, depth + 1).join("/") : dirname(file);
};

describe("imports form no cycle", () => {
  for (const top of ["src", "web/src"]) {
    it(`${top}: between files`, () => expect(cycle(edges(top, (file) => file.replace(/\.tsx?$/, "")))).toBeNull());
    for (const depth of [1, 2, 3]) it(`${top}: between folders ${depth} deep`, () => expect(cycle(edges(top, folderAt(depth)))).toBeNull());
  }

  it("finds a cycle where there is one (the check can fail)", () => {
    const graph = new Map([
      ["a", new Set(["b"])],
      ["b", new Set(["c"])],
      ["c", new Set(["a"])],
    ]);
    expect(cycle(graph)).toEqual(["a", "b", "c", "a"]);
  });
});
