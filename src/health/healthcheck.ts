/** How long `cairn healthcheck` waits for the answer: well within a container HEALTHCHECK's timeout. */
const PROBE_TIMEOUT_MS = 3_000;

/**
 * `cairn healthcheck`: asks the server on this machine's `port` for /healthz, for a container's
 * HEALTHCHECK (the image has no curl). Answers null when it is live, else what went wrong.
 */
export async function probeHealth(port: number): Promise<string | null> {
  try {
    const res = await fetch(`http://127.0.0.1:${port}/healthz`, { signal: AbortSignal.timeout(PROBE_TIMEOUT_MS) });
    await res.body?.cancel();
    return res.status === 200 ? null : `/healthz answered ${res.status}`;
  } catch (e) {
    return `no answer from http://127.0.0.1:${port}/healthz (${(e as Error).message})`;
  }
}
