import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { spawnOwned } from "../helpers/processes.ts";
import { freePort, tempDir } from "../helpers/temp.ts";
import { waitFor } from "../helpers/wait.ts";

/** Debian's interpreter, where apt installs Authlib and Flask (not a pyenv one on PATH). */
const PYTHON = "/usr/bin/python3";
const APP = join(import.meta.dir, "authlib_app.py");

function pythonHas(...modules: string[]): boolean {
  if (!existsSync(PYTHON)) return false;
  return Bun.spawnSync([PYTHON, "-c", modules.map((m) => `import ${m}`).join("; ")], { stdout: "ignore", stderr: "ignore" }).exitCode === 0;
}

/** Why the Authlib tests cannot run here, or null when Debian's python3-authlib, -flask and -requests are installed. */
export const authlibSkipReason: string | null = pythonHas("authlib", "flask", "requests")
  ? null
  : `${PYTHON} lacks authlib, flask or requests (apt-get install python3-authlib python3-flask python3-requests)`;

/** The Authlib version Debian installed ("1.2.0"), for the test's name. */
export function authlibVersion(): string {
  return Bun.spawnSync([PYTHON, "-c", "import authlib; print(authlib.__version__)"]).stdout.toString().trim();
}

export type AuthlibApp = { url: string; stderr: () => string; stop: () => Promise<void> };

/** Starts authlib_app.py (werkzeug's server) on `port` with the filled `snippet` and its values. */
export async function startAuthlibApp(snippet: string, values: Record<string, string>, port = freePort()): Promise<AuthlibApp> {
  const setup = join(tempDir("cairn-authlib-"), "setup.json");
  writeFileSync(setup, JSON.stringify({ snippet, values }));
  const proc = spawnOwned([PYTHON, APP, String(port), setup], { stdout: "ignore", stderr: "pipe", env: { ...process.env, PYTHONDONTWRITEBYTECODE: "1" } });
  // Werkzeug logs every request and traceback to stderr: read it all, or a full pipe stalls the app.
  let errors = "";
  void (async () => {
    const decoder = new TextDecoder();
    for await (const chunk of proc.stderr) errors += decoder.decode(chunk, { stream: true });
  })();
  const url = `http://127.0.0.1:${port}`;
  await waitFor(
    () => {
      if (proc.exitCode !== null) throw new Error(`authlib_app.py exited with ${proc.exitCode}:\n${errors}`);
      return fetch(`${url}/`, { redirect: "manual" }).then(
        () => true,
        () => false,
      );
    },
    { what: "the Flask app to answer", timeoutMs: 15_000, intervalMs: 50 },
  );
  return {
    url,
    stderr: () => errors,
    async stop() {
      proc.kill("SIGTERM");
      await proc.exited;
    },
  };
}
