import { isUnder, loosePath, parentsOf, readPath, splitHost } from "./rules.normalize.ts";

/** A rule as the matcher and the check read it: every field filled, prefixes in their stored form. */
export type CompiledRule = {
  id: string;
  host: string;
  pathPrefixes: string[];
  methods: string[];
  allow: { everyone: boolean; teams: string[]; groups: string[]; admins: boolean };
  requireMfa: boolean;
  bypassPaths: string[];
  headers: { user: string; email: string; name: string; groups: string };
  position: number;
};

export type Match = { kind: "none" } | { kind: "bypass"; rule: CompiledRule } | { kind: "rule"; rule: CompiledRule };

/** Path prefixes in both readings (rules.normalize.ts); null: every path. */
type Prefixes = { strict: string[]; loose: string[] } | null;

type Entry = {
  order: number;
  port: number | null;
  methods: ReadonlySet<string> | null;
  paths: Prefixes;
  bypass: Prefixes;
  /** Made once, so that matching allocates nothing and two readings compare by identity. */
  asRule: Match;
  asBypass: Match;
};

/** A requested host (as sent): its port, and the rules that may apply to it, in order. */
type HostEntry = { port: number | null; candidates: Entry[] } | null;

/**
 * The compiled rules: per host name, the rules naming it exactly; per parent name, the `*.` rules;
 * and per requested host as sent, both merged in order (filled as hosts are asked for, bounded), so
 * a check costs one Map lookup and a scan of that host's few rules however many there are.
 */
export type RuleSet = {
  readonly size: number;
  readonly exact: ReadonlyMap<string, Entry[]>;
  readonly wildcard: ReadonlyMap<string, Entry[]>;
  readonly byHost: Map<string, HostEntry>;
  /** Some prefix reads differently loosely (capitals, escapes): every request is then matched both ways. */
  readonly looseDiffers: boolean;
};

const NONE: Match = { kind: "none" };
/** Hosts remembered per rule set: requests may name any host, so the memo has a bound. */
const HOSTS_KEPT = 4096;

/** Indexes rules by host, in order: lowest position first, ties in the order given (creation). */
export function compileRules(rules: CompiledRule[]): RuleSet {
  const ordered = rules.map((rule, i) => ({ rule, i })).sort((a, b) => a.rule.position - b.rule.position || a.i - b.i);
  const exact = new Map<string, Entry[]>();
  const wildcard = new Map<string, Entry[]>();
  let looseDiffers = false;
  ordered.forEach(({ rule }, order) => {
    const wild = rule.host.startsWith("*.");
    const host = splitHost(wild ? rule.host.slice(2) : rule.host);
    // A row no validation let in (written by hand) can match nothing rather than stop every check.
    if (host === null) return;
    const paths = prefixesOf(rule.pathPrefixes);
    const bypass = prefixesOf(rule.bypassPaths);
    looseDiffers ||= [paths, bypass].some((p) => p?.strict.some((s, i) => s !== p.loose[i]));
    const entry: Entry = {
      order,
      port: host.port,
      methods: rule.methods.length === 0 ? null : new Set(rule.methods.map((m) => m.toUpperCase())),
      paths,
      bypass,
      asRule: { kind: "rule", rule },
      asBypass: { kind: "bypass", rule },
    };
    const index = wild ? wildcard : exact;
    const list = index.get(host.name);
    if (list === undefined) index.set(host.name, [entry]);
    else list.push(entry);
  });
  return { size: ordered.length, exact, wildcard, byHost: new Map(), looseDiffers };
}

/**
 * The rule a request falls under: the first whose host, port (only when the rule names one), method
 * and path prefixes match; a bypass when the path also lies under one of its bypass paths. `host`
 * as sent (any case, a trailing dot, a port); `path` raw, without the query. A path whose strict and
 * loose readings fall under different rules, or one a bypass and one not, matches none: refused;
 * so does one whose dot segments sit beside backslashes, escaped slashes or `;` (rules.normalize.ts).
 */
export function matchRequest(set: RuleSet, req: { host: string; path: string; method: string }): Match {
  const host = hostEntry(set, req.host);
  if (host === null || host.candidates.length === 0) return NONE;
  const path = readPath(req.path);
  if (path === null) return NONE;
  const method = req.method.toUpperCase();
  const first = firstMatch(host.candidates, host.port, method, path.strict, false);
  if (path.loose === path.strict && !set.looseDiffers) return first;
  return firstMatch(host.candidates, host.port, method, path.loose, true) === first ? first : NONE;
}

/**
 * Whether a URL may be a redirect target (no open redirect): `http` or `https`, a host name (no IP
 * literal in brackets, no escapes, no user info, nothing a browser would read as another host, such
 * as a backslash, a tab or a non-ASCII character), which some rule names, with its port when the
 * rule names one (80 or 443 when the URL has none).
 */
export function isRuleTarget(set: RuleSet, url: string): boolean {
  // A browser drops tabs and newlines anywhere and reads `\` as `/`: such a URL is not what it seems.
  if (url.length > 8192 || /[^\x21-\x7e]|\\/.test(url)) return false;
  const m = /^(https?):\/\/([^/?#]*)(?:[/?#]|$)/i.exec(url);
  const host = m ? splitHost(m[2] as string) : null;
  if (m === null || host === null) return false;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return false;
  }
  // What the browser would open must be the host read here (WHATWG rewrites numeric hosts, say).
  if (parsed.username !== "" || parsed.password !== "" || parsed.hostname.replace(/\.$/, "") !== host.name) return false;
  const port = host.port ?? ((m[1] as string).toLowerCase() === "https" ? 443 : 80);
  return candidatesFor(set, host.name).some((e) => e.port === null || e.port === port);
}

function prefixesOf(prefixes: string[]): Prefixes {
  if (prefixes.length === 0) return null;
  return { strict: prefixes, loose: prefixes.map((p) => loosePath(p) ?? p) };
}

/** A host as sent, read once: remembered, since every check of an app sends the same one. */
function hostEntry(set: RuleSet, raw: string): HostEntry {
  const known = set.byHost.get(raw);
  if (known !== undefined) return known;
  const host = splitHost(raw);
  const entry = host === null ? null : { port: host.port, candidates: candidatesFor(set, host.name) };
  // A Map keeps insertion order: the oldest host goes first.
  if (set.byHost.size >= HOSTS_KEPT) set.byHost.delete(set.byHost.keys().next().value as string);
  set.byHost.set(raw, entry);
  return entry;
}

/** The rules that may apply to a host name, in order: its exact rules and its parents' `*.` rules. */
function candidatesFor(set: RuleSet, name: string): Entry[] {
  const lists = [set.exact.get(name), ...parentsOf(name).map((p) => set.wildcard.get(p))].filter((l) => l !== undefined);
  return lists.length === 1 ? (lists[0] as Entry[]) : lists.flat().sort((a, b) => a.order - b.order);
}

function firstMatch(candidates: Entry[], port: number | null, method: string, path: string, loose: boolean): Match {
  for (const e of candidates) {
    if (e.port !== null && e.port !== port) continue;
    if (e.methods !== null && !e.methods.has(method)) continue;
    if (e.paths !== null && !underAny(path, loose ? e.paths.loose : e.paths.strict)) continue;
    return e.bypass !== null && underAny(path, loose ? e.bypass.loose : e.bypass.strict) ? e.asBypass : e.asRule;
  }
  return NONE;
}

const underAny = (path: string, prefixes: string[]) => prefixes.some((p) => isUnder(path, p));
