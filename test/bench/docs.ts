/**
 * Docs site benchmarks (issue 14): a cached page (rendered HTML from the cache), and a cold
 * render (DOCS_HTML_TTL_SECONDS=0: every request renders the Markdown again) of a 10 KB page with
 * headings, code, a table and admonitions, from a local folder source; and the render alone, in
 * process (the target: well under 5 ms a page on a developer machine).
 * `npm run bench:docs`; BENCH_SECONDS, BENCH_ROUNDS.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { encodeDiagram } from "../../src/docs/render/diagram-key.ts";
import { type RenderOptions, renderMarkdown } from "../../src/docs/render/render-markdown.ts";
import { cairnCommand, placement, measure, type Round, startServer } from "./harness.ts";

const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
const fmt = (n: number, d = 0) => n.toLocaleString("en-US", { maximumFractionDigits: d, minimumFractionDigits: d });

/** A guide of about 10 KB: prose, a link, code, a table and an admonition per section. */
function guide(): string {
  const section = (i: number) =>
    `## Section ${i}\n\nCairn is **one binary** and one SQLite file; this paragraph says so at some length, with a [link](../index.md) and \`code\`.\n\n` +
    `:::tip Note ${i}\nKeep backups with \`cairn backup FILE\`.\n:::\n\n` +
    "```ts\nexport function add(a: number, b: number): number {\n  return a + b; // sum\n}\n```\n\n| key | value |\n|---|---|\n| a | 1 |\n| b | 2 |\n\n";
  return `---\ntitle: Guide\n---\n\n# Guide\n\n${Array.from({ length: 24 }, (_, i) => section(i)).join("")}`;
}

/** A docs folder: an index and the guide. */
function folder(): string {
  const root = join(tmpdir(), `cairn-bench-docs-${process.pid}`);
  mkdirSync(join(root, "docs", "guide"), { recursive: true });
  writeFileSync(join(root, "docs", "index.md"), "# Home\n\nSee the [guide](guide/page.md).\n");
  writeFileSync(join(root, "docs", "guide", "page.md"), guide());
  return root;
}

/** The guide rendered in process, as the site renders a page: mean ms a render. */
function renderMs(): number {
  const page = guide();
  const options: RenderOptions = {
    link: (href) => href,
    image: (src) => src,
    diagram: (type, source) => `/docs/_diagram/${type}/${encodeDiagram(source)}.svg`,
  };
  for (let i = 0; i < 20; i++) renderMarkdown(page, "guide/page.md", options);
  const runs = 200;
  const started = performance.now();
  for (let i = 0; i < runs; i++) renderMarkdown(page, "guide/page.md", options);
  return (performance.now() - started) / runs;
}

async function run(label: string, env: Record<string, string>): Promise<[string, Round]> {
  const server = await startServer(env);
  try {
    const register = await fetch(`${server.url}/api/auth/register`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: server.url },
      body: JSON.stringify({ username: "bench", email: "bench@example.com", password: "bench password 123" }),
    }).then((r) => r.json() as Promise<{ session_token: string }>);
    const added = await fetch(`${server.url}/api/docs/sources`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${register.session_token}` },
      body: JSON.stringify({ slug: "bench", name: "Bench", kind: "local", local_path: folder(), docs_root: "docs" }),
    });
    if (added.status !== 201) throw new Error(`source not added: ${added.status} ${await added.text()}`);
    const url = `${server.url}/docs/bench/guide/page`;
    const first = await fetch(url);
    if (first.status !== 200 || !(await first.text()).includes("Section 23")) throw new Error("the page did not render");
    return [label, await measure(url, server.proc.pid, seconds, rounds)];
  } finally {
    await server.stop();
  }
}

console.log(`renderMarkdown of the 10 KB guide, in process: ${fmt(renderMs(), 2)} ms (mean of 200)\n`);
console.log(`measuring ${cairnCommand().join(" ")}: ${rounds} rounds of ${seconds} s, 10 connections, ${placement()}\n`);
const rows = [
  await run("GET /docs/<page>, cached (10 KB of Markdown)", {}),
  await run("GET /docs/<page>, rendered every time", { DOCS_HTML_TTL_SECONDS: "0" }),
];
console.log("| what | req/s | p99 ms | CPU ms/req | errors | stolen % |\n| ---- | ----- | ------ | ---------- | ------ | -------- |");
for (const [label, r] of rows) console.log(`| ${label} | ${fmt(r.rps)} | ${fmt(r.p99, 1)} | ${fmt(r.cpuMsPerReq, 3)} | ${r.errors} | ${fmt(r.stolenPct)} |`);
