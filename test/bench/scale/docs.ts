/**
 * Issue 43, item 4: the docs site at 10 and 2,000 pages. A cached page view is measured on a
 * server (from the source) over a folder source, for its CPU per request and its size. What a
 * push costs is measured in this process, on an app over a stand-in of the GitHub API
 * (test/docs/docs.fixtures.ts) on a clock moved by hand: the outbound requests of the first view
 * after a push that changed one page (every cached text expired, as ten minutes after a visit),
 * and the first search once the index has lived its 20 minutes after such a push, each with the
 * CPU time the process spent on it (the stand-in's few answers included).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startApp } from "../../helpers/app.ts";
import { manualClock } from "../../helpers/clock.ts";
import { githubStandIn, pointedSource, pushPayload } from "../../docs/docs.fixtures.ts";
import { measure, median, startServer } from "../harness.ts";
import { type Figure, quickDivisor, type ScaleArea, type Size } from "./area.ts";

const SECONDS = Number(process.env.BENCH_SECONDS ?? (process.env.SCALE_QUICK ? 2 : 5));
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const SOURCE = [process.execPath, join(import.meta.dir, "../../../src/main.ts")];
/** Pushes measured after each other, for the time's median. */
const TIMES = 5;

/** A page of a few paragraphs, with frontmatter placing it. */
const page = (title: string, position: number, words: string) =>
  `---\nsidebar_position: ${position}\n---\n# ${title}\n\n${`This page explains ${words} at some length, as pages do. `.repeat(12)}\n\n## Details\n\nMore about ${words}.\n`;

/**
 * The docs folder's files: at 10 pages a home and three sections of three pages; at 2,000 a home
 * and 20 sections of 10 folders of 10 pages (big handbooks nest). The page measured is in the
 * last folder of the last section.
 */
function docsFiles(size: Size): { files: Record<string, string>; measured: string } {
  const files: Record<string, string> = { "docs/index.md": page("Home", 1, "the handbook") };
  if (size === "small") {
    for (let s = 1; s <= 3; s++) for (let p = 1; p <= 3; p++) files[`docs/section-${s}/page-${p}.md`] = page(`Page ${s}.${p}`, p, `topic${s}x${p}`);
    return { files, measured: "section-3/page-2" };
  }
  const sections = Math.max(1, 20 / quickDivisor());
  for (let s = 1; s <= sections; s++)
    for (let f = 1; f <= 10; f++)
      for (let p = 1; p <= 10; p++) files[`docs/section-${s}/folder-${f}/page-${p}.md`] = page(`Page ${s}.${f}.${p}`, p, `topic${s}x${f}x${p}`);
  return { files, measured: `section-${sections}/folder-10/page-2` };
}
const pageCount = (files: Record<string, string>) => Object.keys(files).filter((p) => p.endsWith(".md")).length;

/** A cached page view on a server: CPU per request (autocannon, ROUNDS rounds) and its size. */
async function pageView(size: Size): Promise<Figure[]> {
  const { files, measured } = docsFiles(size);
  const folder = mkdtempSync(join(tmpdir(), "cairn-bench-docs-"));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(folder, path, ".."), { recursive: true });
    writeFileSync(join(folder, path), text);
  }
  const server = await startServer({}, SOURCE);
  try {
    const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
      fetch(server.url + path, { method: "POST", headers: { "content-type": "application/json", origin: server.url, ...headers }, body: JSON.stringify(body) });
    const { session_token } = (await (
      await post("/api/auth/register", { username: "bench", email: "bench@example.com", password: "bench password 123" })
    ).json()) as { session_token: string };
    const added = await post(
      "/api/docs/sources",
      { slug: "bench", name: "Bench", kind: "local", local_path: folder, docs_root: "docs" },
      { authorization: `Bearer ${session_token}` },
    );
    if (added.status !== 201) throw new Error(`source not added: ${added.status} ${await added.text()}`);
    const url = `${server.url}/docs/bench/${measured}`;
    const first = await fetch(url);
    const bytes = (await first.arrayBuffer()).byteLength;
    if (first.status !== 200) throw new Error(`the page answered ${first.status}`);
    const round = await measure(url, server.proc.pid, SECONDS, ROUNDS);
    const note = `${pageCount(files)} pages`;
    return [
      { row: "docs page view, cached: CPU per request", value: round.cpuMsPerReq, unit: "ms", note },
      { row: "docs page view, cached: size", value: bytes / 1024, unit: "KB", note },
    ];
  } finally {
    await server.stop();
    rmSync(folder, { recursive: true, force: true });
  }
}

/** A push that changed one page: the first view after it, and the first search once the index is due. */
async function afterPush(size: Size): Promise<Figure[]> {
  const { files, measured } = docsFiles(size);
  const gh = githubStandIn();
  const clock = manualClock(Date.parse("2026-01-05T09:00:00Z"));
  const app = await startApp({ overrides: { clock, outbound: { allowLoopback: true } } });
  try {
    gh.repo("acme/handbook", files);
    const source = await pointedSource(app, "handbook", "acme/handbook", gh.url);
    const get = async (path: string) => {
      const res = await fetch(`${app.url}${path}`);
      if (res.status !== 200) throw new Error(`${path} answered ${res.status}`);
      return res.text();
    };
    await get(`/docs/handbook/${measured}`);
    await get("/docs/handbook/_search?q=topic1x1");
    await app.ctx.docs.building.get(`${source.id}\u0000en`)?.finished;

    const changed = `docs/${measured}.md`;
    let pushes = 0;
    const push = async () => {
      gh.put("acme/handbook", changed, page("Changed page", 2, `changed${++pushes}`));
      const res = await fetch(`${app.url}/api/webhook`, {
        method: "POST",
        headers: { "content-type": "application/json", "x-github-event": "push" },
        // Each push its own commit: a body seen before is a duplicate delivery, processed once.
        body: JSON.stringify({ ...pushPayload("acme/handbook", [{ modified: [changed] }]), after: pushes.toString(16).padStart(40, "0") }),
      });
      if (res.status !== 200) throw new Error(`the push answered ${res.status}`);
    };
    // CPU time rather than the wall clock's: an answer waits for its batch's fsync, which measures the disk.
    const timed = async (work: () => Promise<unknown>) => {
      const requests = gh.requests.length;
      const started = process.cpuUsage();
      await work();
      const used = process.cpuUsage(started);
      return { ms: (used.user + used.system) / 1000, requests: gh.requests.length - requests };
    };

    // Ten minutes after the visit every cached text has expired: what the first view must ask again.
    const views = [];
    for (let i = 0; i < TIMES; i++) {
      clock.advance(10 * 60_000);
      await push();
      views.push(await timed(() => get(`/docs/handbook/${measured}`)));
    }
    // The index lives its 20 minutes, then takes the push in.
    const searches = [];
    for (let i = 0; i < TIMES; i++) {
      await push();
      clock.advance(20 * 60_000);
      searches.push(
        await timed(async () => {
          if (!(await get(`/docs/handbook/_search?q=changed${pushes}`)).includes(`/docs/handbook/${measured}"`))
            throw new Error("search did not find the pushed page");
        }),
      );
    }
    const view = { ms: median(views.map((v) => v.ms)), requests: Math.max(...views.map((v) => v.requests)) };
    const search = { ms: median(searches.map((v) => v.ms)), requests: Math.max(...searches.map((v) => v.requests)) };
    const note = `${pageCount(files)} pages, in process; CPU: median of ${TIMES}, requests: most of ${TIMES}`;
    return [
      { row: "first view after a one-page push: outbound requests", value: view.requests, unit: "requests", note },
      { row: "first view after a one-page push: CPU", value: view.ms, unit: "ms", note },
      { row: "docs search: first search after a push: CPU", value: search.ms, unit: "ms", note: `index past its 20 minutes; ${note}` },
      { row: "docs search: first search after a push: outbound requests", value: search.requests, unit: "requests", note },
    ];
  } finally {
    await app.stop();
    gh.stop();
  }
}

export const docs: ScaleArea = {
  name: "docs",
  sizes: { small: "10 pages", large: `${pageCount(docsFiles("large").files)} pages` },
  async measure(size: Size): Promise<Figure[]> {
    return [...(await pageView(size)), ...(await afterPush(size))];
  },
};
