import type { Stats } from "node:fs";

/**
 * What tells a file's content apart from its earlier ones without reading it, so that what is
 * kept per file (sidebar facts, search documents) is read again only when the file changed.
 */

/** Git's id of a text (SHA-1 over `blob <size>\0` and its UTF-8 bytes): what a hosting service's tree lists for the file. */
export function gitBlobSha(text: string): string {
  const bytes = Buffer.from(text, "utf8");
  return new Bun.CryptoHasher("sha1").update(`blob ${bytes.byteLength}\0`).update(bytes).digest("hex");
}

/** A file on this disk: its modification time and size (read without opening it). */
export const statVersion = (stat: Pick<Stats, "mtimeMs" | "size">) => `${stat.mtimeMs.toString(36)}-${stat.size}`;

/** Bytes carried in the executable. */
export const bytesVersion = (bytes: Uint8Array) => Bun.hash(bytes).toString(36);
