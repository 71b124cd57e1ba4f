import { join } from "node:path";
import { spawnOwned } from "../helpers/processes.ts";

export type NodeApp = {
  url: string;
  /** What the process wrote to stderr so far (the library's own errors land there). */
  stderr: () => string;
  stop: () => Promise<void>;
};

/** Every chunk of `stream` as text, until it closes. */
async function drain(stream: ReadableStream<Uint8Array>, onText: (text: string) => void) {
  const decoder = new TextDecoder();
  for await (const chunk of stream) onText(decoder.decode(chunk, { stream: true }));
}

/**
 * One of the Node apps in this folder (`script`) under `node`, the runtime its library is written
 * for, on http://127.0.0.1:`port`; resolves once it prints "listening". `env` carries what Cairn's
 * registration gave it.
 */
export async function startNodeApp(script: string, port: number, env: Record<string, string>): Promise<NodeApp> {
  const proc = spawnOwned(["node", join(import.meta.dir, script)], {
    env: { ...process.env, ...env, PORT: String(port) },
    stdout: "pipe",
    stderr: "pipe",
  });
  let out = "";
  let errors = "";
  const listening = Promise.withResolvers<void>();
  void drain(proc.stdout, (text) => {
    out += text;
    if (out.includes("listening")) listening.resolve();
  });
  void drain(proc.stderr, (text) => (errors += text));
  void proc.exited.then((code) => listening.reject(new Error(`${script} exited with ${code} before listening:\n${errors}`)));
  const stop = async () => {
    proc.kill();
    await proc.exited;
  };
  await listening.promise;
  return { url: `http://127.0.0.1:${port}`, stderr: () => errors, stop };
}
