import { describe, expect, it } from "bun:test";
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { createVirtualFileSystem } from "typescript/unstable/fs";
import { findModuleState, type Offender } from "./module-state.ts";

/*
 * No module-level mutable state in src/ (issue 41): a process builds several apps (tests build
 * many), and what one keeps must not leak into another. Per-app state lives in the context built
 * at boot (`ctx.docs`, `ctx.workspace`...), per-call state in locals. Left here: tables that only
 * remember what a pure computation gave, and the like, each with why it may stay.
 */
const ALLOWED: Record<string, string> = {
  "src/build/executable.ts:order": "the build script's own variable: a program run once, not a module the server loads",
  "src/db/commit-stamp.ts:mappings": "one memory map of a database's -shm file per process, shared by every connection to that file",
  "src/db/table-version.ts:readAt": "keyed by the connection: each app's versions, dropped with its database",
  "src/db/pg/database.ts:noSqliteConnection": "a constant that throws on any use: it holds nothing",
  "src/db/tx-gate.ts:txScope": "the async scope a transaction body runs in: what it holds is each call's own frame, never shared between apps",
  "src/identity/users/passwords.ts:dummy": "memo: a hash of a fixed password, made once",
  "src/integrations/catalog.ts:cached": "memo: the embedded catalog, parsed once",
  "src/keys/jwks.ts:classic": "memo: the classic key set derived from the full set it names (`from`)",
  "src/oauth/endpoints/cors.ts:PREFLIGHT": "a template: only its clones are answered",
  "src/oauth/protocol/redirect-uri.ts:compiled": "memo: compiled RE2 patterns by their source, bounded",
  "src/settings/validation/settings-fields.ts:supportedZones": "memo: the runtime's time zone names",
  "src/workspace/renew/renew.schedule.ts:formatters": "memo: a date formatter per time zone",
  "src/workspace/svg/svg-libraries.ts:loaded": "memo: libraries loaded on first use",
};

const ROOT = join(import.meta.dir, "../..");
// Only the sources themselves: the checker resolves names, it does not type-check, so libraries need not load.
const OPTIONS = { noResolve: true, types: [] };

const sourcesIn = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourcesIn(path);
    return /\.tsx?$/.test(entry.name) && !entry.name.endsWith(".d.ts") ? [path] : [];
  });

const shown = (o: Offender) => `${o.file}:${o.line} ${o.name}: ${o.reason}`;

describe("module-level mutable state", () => {
  it("src/ keeps none outside the allow-list, and every allow-list entry is still there", async () => {
    // A project over src/ alone, from a tsconfig that exists only for the compiler.
    const tsconfig = join(ROOT, "tsconfig.module-state.json");
    const found = await findModuleState({
      root: ROOT,
      tsconfig,
      files: sourcesIn(join(ROOT, "src")),
      fs: {
        readFile: (file) => (file === tsconfig ? JSON.stringify({ extends: "./tsconfig.json", compilerOptions: OPTIONS, include: ["src"] }) : undefined),
        fileExists: (file) => (file === tsconfig ? true : undefined),
      },
    });
    const key = (o: Offender) => `${o.file}:${o.name}`;
    expect(found.filter((o) => !(key(o) in ALLOWED)).map(shown)).toEqual([]);
    expect(Object.keys(ALLOWED).filter((k) => !found.some((o) => key(o) === k))).toEqual([]);
  }, 60_000);

  it("reports each kind of module state at its file and line, and leaves what only looks like it (the check can fail)", async () => {
    const files: Record<string, string> = {
      "/fixture/tsconfig.json": JSON.stringify({
        compilerOptions: { strict: true, allowImportingTsExtensions: true, noEmit: true, ...OPTIONS },
        include: ["src"],
      }),
      "/fixture/src/state.ts": `
let counter = 0;
export const bump = () => ++counter;
const cache = new Map<string, number>();
export function remember(k: string) { cache.set(k, 1); }
export const shared = new Set<string>();
export const list: number[] = [];
const state = { n: 0, items: [] as string[] };
export const step = () => { state.n += 1; };
const groups = new Map<string, string[]>();
export const group = (k: string, v: string) => groups.get(k)!.push(v);
const WORD = /\\w+/g;
export const hasWord = (s: string) => WORD.test(s);
class Counter { count = 0; }
export const counted = new Counter();
export class Registry { static entries: string[] = []; static readonly NAME = "r"; }
const options: Record<string, unknown> = {};
export const configure = (more: object) => Object.assign(options, more);
`,
      "/fixture/src/elsewhere.ts": `
import { shared as known } from "./state.ts";
import * as state from "./state.ts";
export function note(name: string) { known.add(name); state.list.push(name.length); }
`,
      "/fixture/src/clean.ts": `
const TABLE = new Map([["a", 1]]);
export const lookup = (k: string) => TABLE.get(k) ?? TABLE.size;
const BY_NAME = new Map<string, number>();
for (const [k, v] of TABLE) BY_NAME.set(k, v);
const cache = new Set<string>();
export function local(k: string) { const cache = new Set<string>(); cache.add(k); return cache.size; }
export const known = (k: string) => cache.has(k);
const SPACES = /\\s+/g;
export const squeeze = (s: string) => s.replace(SPACES, " ");
const utf8 = new TextDecoder();
export const text = (b: Uint8Array) => utf8.decode(b);
const LIMITS = { max: 3 };
export const limit = () => LIMITS.max;
`,
    };
    const found = await findModuleState({
      root: "/fixture",
      tsconfig: "/fixture/tsconfig.json",
      files: ["/fixture/src/state.ts", "/fixture/src/elsewhere.ts", "/fixture/src/clean.ts"],
      fs: createVirtualFileSystem(files),
    });
    expect(found.map(shown)).toEqual([
      "src/state.ts:2 counter: top-level let",
      "src/state.ts:4 cache: Map mutated after load",
      "src/state.ts:6 shared: Set mutated after load",
      "src/state.ts:7 list: array or object literal mutated after load",
      "src/state.ts:8 state: array or object literal mutated after load",
      "src/state.ts:10 groups: Map mutated after load",
      "src/state.ts:12 WORD: /g regular expression used statefully",
      "src/state.ts:15 counted: module-level instance of Counter",
      "src/state.ts:16 Registry.entries: static field that is not readonly",
      "src/state.ts:17 options: array or object literal mutated after load",
    ]);
  }, 60_000);
});
