import { createHash, createHmac } from "node:crypto";
import { existsSync, readdirSync, rmSync, statSync } from "node:fs";
import { type FileHandle, mkdir, open, readFile, rm } from "node:fs/promises";
import { join } from "node:path";
import { streamBody } from "../../shared/body-deadline.ts";
import { constantTimeEqual, randomToken } from "../../shared/crypto.ts";
import { largeBodiesBusy } from "./webhook.errors.ts";

/** A body is kept in memory up to this size as it arrives (every other route's limit); past it, in a spool file until it verifies. */
export const SPOOL_AT_BYTES = 1024 * 1024;
/** Large bodies received at once by one process: more are answered 429 (GitHub's pushes are mostly a few kB). */
export const MAX_LARGE_BODIES = 4;
/** The spool, in the data folder: /tmp may be memory. */
export const SPOOL_FOLDER = "webhook-spool";
/** A spool file this old is a crashed process's leftover (a body must arrive within 20 s). */
const SPOOL_LEFTOVER_MS = 3600_000;

const SIGNATURE = /^sha256=[0-9a-f]{64}$/;
/** The X-Hub-Signature-256 header in the one form that can verify (`sha256=` and 64 hex digits), or null. */
export function signatureOf(header: string | null): string | null {
  const value = header?.trim().toLowerCase() ?? "";
  return SIGNATURE.test(value) ? value : null;
}

/** Places for large bodies in flight. */
export type LargeBodies = { take(): boolean; give(): void };
export function largeBodies(max = MAX_LARGE_BODIES): LargeBodies {
  let inFlight = 0;
  return {
    take() {
      if (inFlight >= max) return false;
      inFlight++;
      return true;
    },
    give() {
      inFlight--;
    },
  };
}

/** A body read once, byte-exact, with its digest: what the signature covers (HMAC-SHA256 with the secret, SHA-256 without one), hex. */
export type ReceivedBody = { raw: Uint8Array; digest: string };

async function writeAll(file: FileHandle, chunk: Uint8Array) {
  for (let at = 0; at < chunk.byteLength; ) at += (await file.write(chunk, at)).bytesWritten;
}

/**
 * Spec 3 section 4.4 steps 1 and 2 without holding a body that does not verify: the raw bytes are
 * hashed as they stream in and kept in memory up to SPOOL_AT_BYTES, past that in a spool file (and
 * a place among the MAX_LARGE_BODIES taken, else 429); `use` gets them once the signature holds,
 * still holding the place. Answers null when it does not hold; nothing of the body is left.
 */
export async function receiveBody<T>(
  request: Request,
  { secret, signature, spoolDir, large }: { secret: string; signature: string | null; spoolDir: string; large: LargeBodies },
  use: (body: ReceivedBody) => Promise<T>,
): Promise<T | null> {
  const hash = secret === "" ? createHash("sha256") : createHmac("sha256", secret);
  let kept: Uint8Array[] = [];
  let size = 0;
  let holding = false;
  const spool: { path: string | null; file: FileHandle | null } = { path: null, file: null };
  const hold = () => {
    if (!large.take()) throw largeBodiesBusy(MAX_LARGE_BODIES);
    holding = true;
  };
  try {
    if (Number(request.headers.get("content-length") ?? 0) > SPOOL_AT_BYTES) hold();
    await streamBody(request, async (chunk) => {
      hash.update(chunk);
      size += chunk.byteLength;
      if (spool.file) return writeAll(spool.file, chunk);
      kept.push(chunk);
      if (size <= SPOOL_AT_BYTES) return;
      // A chunked body grew large: it needs a place too.
      if (!holding) hold();
      await mkdir(spoolDir, { recursive: true, mode: 0o700 });
      spool.path = join(spoolDir, randomToken(12));
      const file = (spool.file = await open(spool.path, "wx", 0o600));
      for (const c of kept) await writeAll(file, c);
      kept = [];
    });
    const digest = hash.digest("hex");
    // Spec 3 section 4.4 step 2: compared in constant time.
    if (secret !== "" && !constantTimeEqual(signature ?? "", `sha256=${digest}`)) return null;
    let raw: Uint8Array;
    if (spool.path !== null) {
      await spool.file?.close();
      spool.file = null;
      raw = await readFile(spool.path);
    } else raw = kept.length === 1 ? (kept[0] as Uint8Array) : Buffer.concat(kept);
    kept = [];
    // Awaited here: the place among the large bodies is held until `use` is done.
    return await use({ raw, digest });
  } finally {
    if (holding) large.give();
    await spool.file?.close().catch(() => {});
    if (spool.path !== null) await rm(spool.path, { force: true });
  }
}

/**
 * Removes spool files a crashed process left. File times are the wall clock's, so this compares
 * against it rather than the app clock.
 */
export function purgeSpool(spoolDir: string): void {
  if (!existsSync(spoolDir)) return;
  for (const name of readdirSync(spoolDir)) {
    const path = join(spoolDir, name);
    // Gone meanwhile (its request ended): nothing to do.
    const age = Date.now() - (statSync(path, { throwIfNoEntry: false })?.mtimeMs ?? Date.now());
    if (age > SPOOL_LEFTOVER_MS) rmSync(path, { force: true });
  }
}
