import { expect, test } from "bun:test";
import { join } from "node:path";
import { freePort, tempDir } from "../helpers/temp.ts";

// Issue 12, idle memory: every module evaluated at start stays in memory in every process.
test("libraries that only some requests need are loaded with their first use, not at start", async () => {
  const port = freePort();
  const proc = Bun.spawn([process.execPath, join(import.meta.dir, "start-modules.fixture.ts")], {
    env: { ...process.env, CAIRN_DATA: tempDir(), PORT: String(port), CAIRN_ISSUER: `http://127.0.0.1:${port}`, CAIRN_LOG_LEVEL: "warn" },
    stdout: "pipe",
    stderr: "inherit",
    timeout: 25_000,
    killSignal: "SIGKILL",
  });
  const out = await new Response(proc.stdout).text();
  expect(await proc.exited).toBe(0);
  const report = JSON.parse(
    out
      .split("\n")
      .find((line) => line.startsWith("MODULES "))
      ?.slice("MODULES ".length) ?? "null",
  );
  expect(report.atStart).toEqual([]);
  // The probe sees them once used (the only one left is WebAuthn, loaded by a passkey ceremony).
  expect(report.afterUse).toEqual([
    "re2js",
    "yaml",
    "@csstools/css-color-parser",
    "css-color-converter",
    "marked",
    "highlight.js",
    "sanitize-html",
    "badge-maker",
    "anafanafo",
  ]);
}, 30_000);
