// How forward auth reads hosts and paths, for requests and for rules alike (pure). A request path
// has two readings: the strict one of RFC 3986, and the loose one of lenient backends (see loosePath).

/** A host name: labels of letters, digits, `-` and `_` (no IDN: punycode), lower-cased by the caller. */
const HOST_NAME = /^[a-z0-9_-]{1,63}(?:\.[a-z0-9_-]{1,63})*$/;

const SLASH = 47; // "/"

/** A host as a rule names it or a request carries it: the lower-case name (no trailing dot) and the port if any. */
export type HostPort = { name: string; port: number | null };

/**
 * Splits `host[:port]`, lower-cased, one trailing dot dropped; null for anything that is not a host
 * name with an optional port 1 to 65535 (an IP literal in brackets, user info, a path, spaces).
 */
export function splitHost(raw: string): HostPort | null {
  const colon = raw.lastIndexOf(":");
  let name = (colon === -1 ? raw : raw.slice(0, colon)).toLowerCase();
  let port: number | null = null;
  if (colon !== -1) {
    const digits = raw.slice(colon + 1);
    if (!/^\d{1,5}$/.test(digits)) return null;
    port = Number(digits);
    if (port < 1 || port > 65535) return null;
  }
  if (name.endsWith(".")) name = name.slice(0, -1);
  return name.length <= 253 && HOST_NAME.test(name) ? { name, port } : null;
}

/** The hosts a name's `*.` rules are kept under: each parent, nearest first (`a.b.c` gives `b.c`, `c`). */
export function parentsOf(name: string): string[] {
  const parents: string[] = [];
  for (let dot = name.indexOf("."); dot !== -1; dot = name.indexOf(".", dot + 1)) parents.push(name.slice(dot + 1));
  return parents;
}

const UNRESERVED = /^[A-Za-z0-9._~-]$/;
const ESCAPE = /%([0-9A-Fa-f]{2})/g;

/** RFC 3986 section 6.2.2.2: an escaped unreserved character is that character; other escapes get upper-case hex. */
const decodeUnreserved = (segment: string) =>
  segment.includes("%")
    ? segment.replace(ESCAPE, (_, hex: string) => {
        const c = String.fromCharCode(Number.parseInt(hex, 16));
        return UNRESERVED.test(c) ? c : `%${hex.toUpperCase()}`;
      })
    : segment;

/**
 * The strict reading of a path (RFC 3986 sections 6.2.2 and 5.2.4): unreserved characters decoded,
 * dot segments resolved (`/public/../admin` is `/admin`; nothing climbs above `/`), the query and
 * fragment cut off. Null for a path that does not start with `/`.
 */
export function strictPath(raw: string): string | null {
  const path = cutQuery(raw);
  if (path.charCodeAt(0) !== SLASH) return null;
  if (!path.includes("%") && !path.includes("/.")) return path;
  return resolveDots(path.split("/").map(decodeUnreserved), false);
}

/**
 * The loose reading: what a lenient backend may serve for the path. Backslashes and escaped
 * slashes are separators, every escape decoded (double escapes too), `;parameters` dropped from
 * segments, empty segments collapsed, dots resolved, letters lower-cased.
 */
export function loosePath(raw: string): string | null {
  const segments = looseSegments(raw);
  return segments === null ? null : resolveDots(segments, true);
}

/** A request path's two readings; a request is matched under both and refused when they disagree. */
export type PathReadings = { strict: string; loose: string };

/**
 * Both readings of a request path, or null when it has no safe one: not from `/`, or dot segments
 * beside what some servers split on or strip (a backslash, an escaped slash, `;`, an empty
 * segment, a double escape), where each server climbs differently. Without dots, every server's
 * reading only splits, strips or folds what the strict one sees, so when the two ends agree every
 * reading between does; with dots and none of these, both readings keep the same segments.
 */
export function readPath(raw: string): PathReadings | null {
  const path = cutQuery(raw);
  if (path.charCodeAt(0) !== SLASH) return null;
  // The common case: nothing but letters' case can read differently (`/Items/Latest`).
  if (!/[%\\;]|\/\/|\/\./.test(path)) return { strict: path, loose: /[A-Z]/.test(path) ? path.toLowerCase() : path };
  const segments = looseSegments(path) as string[];
  if (/[\\;]|\/\/|%(?:2f|5c|3b|25)/i.test(path) && segments.some((s) => s === "." || s === "..")) return null;
  return { strict: strictPath(path) as string, loose: resolveDots(segments, true) };
}

function looseSegments(raw: string): string[] | null {
  const path = cutQuery(raw);
  if (path.charCodeAt(0) !== SLASH) return null;
  // Decoded until nothing changes (a few rounds): some servers decode twice, `%252e` becoming `.`.
  let decoded = path;
  for (let round = 0; round < 3 && decoded.includes("%"); round++) {
    const next = decoded.replace(ESCAPE, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
    if (next === decoded) break;
    decoded = next;
  }
  return decoded
    .replaceAll("\\", "/")
    .split("/")
    .map((s) => {
      const semi = s.indexOf(";");
      return (semi === -1 ? s : s.slice(0, semi)).toLowerCase();
    });
}

/** A path prefix as rules keep it: strictly read, without a trailing slash (but `/` itself). */
export function prefixForm(raw: string): string | null {
  const path = strictPath(raw);
  if (path === null) return null;
  return path.length > 1 && path.endsWith("/") ? path.replace(/\/+$/, "") || "/" : path;
}

/** Whether `path` is `prefix` or lies below it, on whole segments (`/media` holds `/media/x`, not `/mediax`). */
export const isUnder = (path: string, prefix: string) => prefix === "/" || path === prefix || (path.startsWith(prefix) && path[prefix.length] === "/");

function cutQuery(path: string): string {
  const q = path.indexOf("?");
  const h = path.indexOf("#");
  const end = q === -1 ? h : h === -1 ? q : Math.min(q, h);
  return end === -1 ? path : path.slice(0, end);
}

/** RFC 3986 section 5.2.4 over split segments (the first is the empty one before the leading `/`). */
function resolveDots(segments: string[], dropEmpty: boolean): string {
  const out: string[] = [];
  const last = segments.length - 1;
  for (let i = 1; i <= last; i++) {
    const s = segments[i] as string;
    if (s === "." || s === "..") {
      if (s === "..") out.pop();
      // `/a/b/..` is the folder `/a/`: the trailing slash stays.
      if (i === last && !dropEmpty) out.push("");
    } else if (s !== "" || !dropEmpty) out.push(s);
  }
  return `/${out.join("/")}`;
}
