/**
 * Bundles the SPA into web/dist with Bun's bundler. `--if-stale` skips the work when the
 * sources have not changed since the last build (npm start and the test preload use it).
 */
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";

const WEB = import.meta.dir;
const DIST = join(WEB, "dist");
const STAMP = join(DIST, ".build-stamp");

function sourceFiles(dir: string): string[] {
  return readdirSync(dir)
    .sort()
    .flatMap((name) => {
      const path = join(dir, name);
      return statSync(path).isDirectory() ? sourceFiles(path) : [path];
    });
}

/** A hash of everything the bundle is made from. */
function sourceHash(): string {
  const hash = createHash("sha256");
  const inputs = [...sourceFiles(join(WEB, "src")), join(WEB, "index.html"), join(WEB, "build.ts"), join(WEB, "../package-lock.json")];
  for (const file of inputs) if (existsSync(file)) hash.update(file).update(readFileSync(file));
  return hash.digest("hex");
}

export async function buildWeb({ ifStale = false } = {}): Promise<"built" | "fresh"> {
  const hash = sourceHash();
  if (ifStale && existsSync(STAMP) && readFileSync(STAMP, "utf8") === hash) return "fresh";
  rmSync(DIST, { recursive: true, force: true });
  const result = await Bun.build({
    entrypoints: [join(WEB, "index.html")],
    outdir: DIST,
    minify: true,
    sourcemap: "none",
    target: "browser",
    publicPath: "/",
  });
  if (!result.success) {
    for (const log of result.logs) console.error(log);
    throw new Error("web build failed");
  }
  // The 2FA page's proof-of-work solver runs as a Web Worker from a same-origin file of a fixed name.
  const worker = await Bun.build({
    entrypoints: [join(WEB, "src/workers/pow-worker.ts")],
    outdir: DIST,
    naming: "pow-worker.js",
    minify: true,
    sourcemap: "none",
    target: "browser",
  });
  if (!worker.success) {
    for (const log of worker.logs) console.error(log);
    throw new Error("web worker build failed");
  }
  writeFileSync(STAMP, hash);
  return "built";
}

if (import.meta.main) {
  const started = performance.now();
  const outcome = await buildWeb({ ifStale: process.argv.includes("--if-stale") });
  console.log(outcome === "fresh" ? "web: up to date" : `web: built in ${Math.round(performance.now() - started)} ms`);
}
