import { expect, test } from "bun:test";
import { join } from "node:path";
import { spawnOwned } from "../helpers/processes.ts";
import { freePort, tempDir } from "../helpers/temp.ts";

// Issue 12, idle memory: every module evaluated at start stays in memory in every process.
test("libraries that only some requests need are loaded with their first use, not at start", async () => {
  const port = freePort();
  const proc = spawnOwned([process.execPath, join(import.meta.dir, "start-modules.fixture.ts")], {
    env: { ...process.env, CAIRN_DATA: tempDir(), PORT: String(port), CAIRN_ISSUER: `http://127.0.0.1:${port}`, CAIRN_LOG: "warn" },
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
  // The probe sees each once used; WebAuthn is left, as only a passkey ceremony loads it.
  expect(report.afterUse).toEqual(report.watched.filter((name: string) => name !== "@simplewebauthn/server"));
  expect(report.afterUse).toContain("re2js");
}, 30_000);
