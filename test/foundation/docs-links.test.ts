import { describe, expect, it } from "bun:test";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import GithubSlugger from "github-slugger";

/*
 * The README is the entry point and docs/ holds the rest: a link between them that leads nowhere
 * loses the reader the text was moved for. Links are checked as GitHub renders them: relative to
 * the file, outside code, and an anchor must name a heading of the file it points into.
 */
const ROOT = join(import.meta.dir, "../..");
const DOCS = join(ROOT, "docs");
const pages = [join(ROOT, "README.md"), ...readdirSync(DOCS).flatMap((name) => (name.endsWith(".md") ? [join(DOCS, name)] : []))];

/** The file's lines, with those of fenced code blocks (fences included) left empty. */
function outsideFences(markdown: string): string[] {
  let fenced = false;
  return markdown.split("\n").map((line) => {
    if (/^\s*```/.test(line)) {
      fenced = !fenced;
      return "";
    }
    return fenced ? "" : line;
  });
}

/** The anchors GitHub gives the file's headings: slugs of their text as rendered. */
function anchors(file: string): Set<string> {
  const slugger = new GithubSlugger();
  const headings = outsideFences(readFileSync(file, "utf8")).flatMap((line) => /^#{1,6}\s+(.*)$/.exec(line)?.[1] ?? []);
  return new Set(headings.map((text) => slugger.slug(text.replace(/`/g, "").replace(/\[([^\]]*)\]\([^)]*\)/g, "$1"))));
}

/** Every `[text](target)` and `![alt](target)` outside code whose target is not a URL with a scheme. */
function relativeLinks(file: string): { line: number; target: string }[] {
  return outsideFences(readFileSync(file, "utf8")).flatMap((text, index) =>
    [...text.replace(/`[^`]*`/g, "").matchAll(/!?\[[^\]]*\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)]
      .map((m) => m[1] as string)
      .filter((target) => !/^[a-z][a-z0-9+.-]*:/i.test(target))
      .map((target) => ({ line: index + 1, target })),
  );
}

/** Why the link leads nowhere, or null when it leads where it says. */
function broken(file: string, target: string): string | null {
  const [path = "", anchor] = target.split("#", 2);
  const into = path === "" ? file : join(dirname(file), decodeURIComponent(path));
  if (!existsSync(into)) return `${relative(ROOT, into)} does not exist`;
  if (anchor === undefined || anchor === "" || statSync(into).isDirectory() || !into.endsWith(".md")) return null;
  return anchors(into).has(decodeURIComponent(anchor)) ? null : `${relative(ROOT, into)} has no heading #${anchor}`;
}

describe("README.md and docs/*.md", () => {
  it("leave no page of docs/ unlinked: each is linked from the README or another page", () => {
    const targets = new Set(
      pages.flatMap((file) => relativeLinks(file).map(({ target }) => join(dirname(file), target.split("#")[0] ?? "").replace(/\/$/, ""))),
    );
    const unlinked = pages.filter((file) => file !== join(ROOT, "README.md") && !targets.has(file)).map((file) => relative(ROOT, file));
    expect(unlinked).toEqual([]);
  });

  for (const file of pages) {
    it(`${relative(ROOT, file)}: every relative link leads to a file that exists, and its anchor to a heading there`, () => {
      const links = relativeLinks(file);
      const problems = links.flatMap(({ line, target }) => {
        const why = broken(file, target);
        return why === null ? [] : [`line ${line}: (${target}): ${why}`];
      });
      expect(problems).toEqual([]);
    });
  }
});
