import { describe, expect, it } from "bun:test";
import { posix } from "node:path";
import fc from "fast-check";
import { insideRoot } from "../../src/docs/repository/repository.ts";

/*
 * Issue 39 item 13: whether a repository path is under a source's docs root, the one matcher the
 * reader and the webhook share. A bare prefix test took `docs/../../x.md` for a file of `docs`.
 */

/** Segments as repository paths have them, and the ones that walk or hide: `.`, `..`, empty, backslashes. */
const segment = fc.oneof(
  fc.constantFrom("docs", "docs-old", "en", "intro.md", "guide", "", ".", "..", "...", "..md", ".hidden", "a\\b", "..\\..", "é 🚀"),
  fc.string({ maxLength: 6 }).filter((s) => !s.includes("/")),
);
const clean = (s: string) => s !== "" && s !== "." && s !== ".." && !s.includes("\\");

/** The matcher's meaning, stated on segments: every segment clean, and the root's segments a strict prefix. */
function model(root: string[], path: string[]): boolean {
  if (!path.every(clean)) return false;
  // An empty root (no segments, or one empty one) is the repository's top: every clean path is in it.
  const segments = root.join("/") === "" ? [] : root;
  return path.length > segments.length && segments.every((s, i) => s === path[i]);
}

describe("insideRoot", () => {
  it("agrees with its meaning on segments, for any root and path", () => {
    fc.assert(
      fc.property(fc.array(segment, { maxLength: 3 }), fc.array(segment, { minLength: 1, maxLength: 6 }), (root, path) => {
        expect(insideRoot(root.join("/"), path.join("/"))).toBe(model(root, path));
      }),
      { numRuns: 5_000 },
    );
  });

  it("accepts a path built from the root and clean segments, and none that walks out of it once normalized", () => {
    fc.assert(
      fc.property(fc.array(segment.filter(clean), { minLength: 1, maxLength: 3 }), fc.array(segment, { minLength: 1, maxLength: 6 }), (root, rest) => {
        const path = [...root, ...rest].join("/");
        const inside = insideRoot(root.join("/"), path);
        if (rest.every(clean)) expect(inside).toBe(true);
        // Whatever it accepts means what it says: normalizing changes nothing, and stays under the root.
        if (inside) {
          expect(posix.normalize(path)).toBe(path);
          expect(posix.normalize(path).startsWith(`${root.join("/")}/`)).toBe(true);
        }
      }),
      { numRuns: 5_000 },
    );
  });

  it("refuses the paths that a bare prefix test let through", () => {
    for (const path of ["docs/../../x.md", "docs/../README.md", "docs/en/../../x.md", "docs/./intro.md", "docs//intro.md", "docs/", "docs/..\\x.md"])
      expect({ path, inside: insideRoot("docs", path) }).toEqual({ path, inside: false });
    for (const path of ["../x.md", "./x.md", "/x.md", "a//b.md"]) expect({ path, inside: insideRoot("", path) }).toEqual({ path, inside: false });
    expect(insideRoot("docs", "docs-old/intro.md")).toBe(false);
    expect(insideRoot("docs", "docs/en/intro.md")).toBe(true);
    expect(insideRoot("", "docs/en/intro.md")).toBe(true);
  });
});
