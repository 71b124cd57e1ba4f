import { embedFolder } from "../../shared/embed.macro.ts" with { type: "macro" };
import { onFirstUse } from "../../shared/on-first-use.ts";

/**
 * Cairn's own user guide (docs/guide), carried inside the executable by a bundle-time macro, as
 * the SPA is: the built-in docs source needs no network and changes with the program. Markdown and
 * pictures only; the macro's text becomes strings only when first read.
 */
const embedded = (): Record<string, string> => embedFolder("docs/guide", "\\.(md|png|svg|jpe?g|webp)$");

/** The built-in source's row (docs_sources), made at boot; the slug is the first of these free then. */
export const GUIDE = { id: "builtin-guide", name: "Cairn guide", slugs: ["guide", "cairn-guide"] } as const;

export type GuideFiles = { files: ReadonlyMap<string, Uint8Array>; version: string };

/** The guide's files by path inside docs/guide, and a hash of them all: a new one drops what was cached of the old. */
export const guideFiles: () => GuideFiles = onFirstUse(() => {
  const files = new Map(Object.entries(embedded()).map(([path, b64]) => [path, new Uint8Array(Buffer.from(b64, "base64"))]));
  const version = Bun.hash([...files].map(([path, bytes]) => `${path}:${Bun.hash(bytes)}`).join("\n")).toString(36);
  return { files, version };
});
