import { attachToServer, type TestApp } from "./app.ts";
import { type RunningServer, startServer } from "./cli.ts";
import { storeEnv } from "./pg-store.ts";
import { freePort, tempDir } from "./temp.ts";
import { waitFor } from "./wait.ts";

/**
 * How long a test of CAIRN_WORKERS waits for what it needs: on a busy machine a worker can take
 * many seconds to start, and a log line to come through its pipe. Waited for, never slept on.
 */
export const WORKERS_PATIENCE_MS = 60_000;

/** Resolves once the second worker says it listens; until then the primary alone answers. */
export const workerListening = (server: RunningServer) =>
  waitFor(() => server.log.some((l) => l.includes('"msg":"worker listening"')), {
    what: "the second worker to listen",
    timeoutMs: WORKERS_PATIENCE_MS,
    intervalMs: 20,
  });

/**
 * How many requests each worker (0, the primary, and 1) logged for the paths `matching` takes,
 * once `total` such lines came: a line leaves once per turn, through a pipe, and that of a stream
 * only when the worker sees it end.
 */
export async function requestsByWorker(server: RunningServer, matching: (path: string) => boolean, total: number, what: string): Promise<number[]> {
  const counts = () => {
    const lines = server.log.filter((l) => l.includes('"msg":"request"')).map((l) => JSON.parse(l) as { worker: number; path: string });
    return [0, 1].map((worker) => lines.filter((l) => l.worker === worker && matching(l.path)).length);
  };
  await waitFor(() => counts().reduce((a, b) => a + b) >= total, {
    what: `${total} request lines for ${what}`,
    timeoutMs: WORKERS_PATIENCE_MS,
    intervalMs: 20,
  });
  return counts();
}

/**
 * `cairn serve` with CAIRN_WORKERS=2 on a fresh folder, once its second worker listens, with every
 * answer logged (no sampling: tests count lines per worker), and a TestApp over the same folder.
 */
export async function startTwoWorkers(): Promise<{ server: RunningServer; instance: TestApp; url: string; dataDir: string }> {
  const dataDir = tempDir();
  const url = `http://127.0.0.1:${freePort()}`;
  // On the store under test: the PostgreSQL database attachToServer then finds by the folder.
  const store = await storeEnv(dataDir, {});
  const server = await startServer({
    CAIRN_DATA: dataDir,
    PORT: new URL(url).port,
    CAIRN_ISSUER: url,
    CAIRN_WORKERS: "2",
    CAIRN_LOG_REQUESTS_PER_SECOND: "0",
    ...store,
  });
  await workerListening(server);
  return { server, instance: await attachToServer(url, dataDir), url, dataDir };
}
