import { onFirstUse } from "../../shared/on-first-use.ts";

/** node:zlib on the first diagram: a builtin imported at the top loads at every start, diagrams or not (issue 12, idle memory). */
const zlib = onFirstUse(() => require("node:zlib") as typeof import("node:zlib"));

/**
 * Diagram types a Kroki server renders (its DiagramRegistry: https://github.com/yuzutech/kroki), the fence
 * languages that become diagrams. `dot` is Kroki's alias of graphviz; diagramsnet is experimental there.
 */
export const KROKI_TYPES = [
  "actdiag",
  "blockdiag",
  "bpmn",
  "bytefield",
  "c4plantuml",
  "d2",
  "dbml",
  "diagramsnet",
  "ditaa",
  "dot",
  "erd",
  "excalidraw",
  "goat",
  "graphviz",
  "mermaid",
  "nomnoml",
  "nwdiag",
  "packetdiag",
  "pikchr",
  "plantuml",
  "rackdiag",
  "seqdiag",
  "structurizr",
  "svgbob",
  "symbolator",
  "tikz",
  "umlet",
  "vega",
  "vegalite",
  "wavedrom",
  "wireviz",
] as const;

export type KrokiType = (typeof KROKI_TYPES)[number];

const TYPES: ReadonlySet<string> = new Set(KROKI_TYPES);

export function isKrokiType(value: string): value is KrokiType {
  return TYPES.has(value);
}

/** A decoded source never exceeds this: a small key must not inflate into a large allocation. */
export const MAX_DIAGRAM_SOURCE_BYTES = 64 * 1024;

const KEY = /^[A-Za-z0-9_-]+={0,2}$/;
const UTF8 = new TextDecoder("utf-8", { fatal: true });

/** Kroki's GET encoding: base64url of the zlib-deflated (level 9) UTF-8 source, without padding. */
export function encodeDiagram(source: string): string {
  return zlib().deflateSync(Buffer.from(source, "utf8"), { level: 9 }).toString("base64url");
}

/** The source a key encodes, or null for a key that is not valid base64url, zlib or UTF-8, or inflates past 64 KiB. */
export function decodeDiagram(key: string): string | null {
  if (!KEY.test(key)) return null;
  try {
    const source = zlib().inflateSync(Buffer.from(key, "base64url"), { maxOutputLength: MAX_DIAGRAM_SOURCE_BYTES });
    return UTF8.decode(source);
  } catch {
    return null;
  }
}
