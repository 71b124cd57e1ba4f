import { lookup } from "node:dns/promises";
import { isIP } from "node:net";
import ipaddr from "ipaddr.js";

/**
 * An outbound fetch that was refused by the guard or failed on the way. The message is the same
 * whatever happened: told to a caller, "connection refused" or "TLS failed" would map what
 * listens at an address. `detail` says what happened, for the log only.
 */
export class OutboundRefused extends Error {
  constructor(readonly detail: string) {
    super("the URL could not be fetched");
    this.name = "OutboundRefused";
  }
}

export type OutboundPolicy = {
  /** Test-only switch: lets tests reach their own loopback servers over http. Never set from the environment. */
  allowLoopback: boolean;
  /**
   * An origin the operator configured by hand (the workspace's identity provider): it may be on
   * the LAN or loopback, over http. Only that exact origin; a redirect elsewhere is checked as usual.
   */
  trustedOrigin?: string;
  /** Test-only, with allowLoopback: the certificate of the test's own HTTPS receivers. Never set from the environment. */
  testCa?: string;
};

const MAX_REDIRECTS = 3;
const MAX_BYTES = 256 * 1024;
const TIMEOUT_MS = 5000;
// ipaddr.js names the IPv6 forms that embed an IPv4 address (ipv4Mapped, rfc6145, rfc6052, 6to4,
// teredo) but calls the deprecated IPv4-compatible ::/96 unicast: that one is matched here.
const IPV4_COMPATIBLE = ipaddr.IPv6.parseCIDR("::/96");

const parsed = (ip: string) => (isIP(ip) !== 0 && ipaddr.isValid(ip) ? ipaddr.parse(ip) : null);

/**
 * True unless the address is public unicast. Every IPv6 form that carries an IPv4 address is
 * refused whole: a public server is not reached through one, and each is a way round the ranges.
 */
export function isForbiddenAddress(ip: string): boolean {
  const address = parsed(ip);
  if (!address) return true;
  if (address instanceof ipaddr.IPv6 && address.match(IPV4_COMPATIBLE)) return true;
  return address.range() !== "unicast";
}

// 127.0.0.0/8 and ::1 only: a mapped form (::ffff:127.0.0.1) is not loopback to the guard.
const isLoopback = (ip: string) => parsed(ip)?.range() === "loopback";

/**
 * Why the guard would refuse `url` whatever DNS says, or null: its host is an IP literal that is
 * not public (the WHATWG parser has already turned 0x7f.1, 2130706433 and the like into dotted
 * form), or `localhost` (RFC 6761 section 6.3: always loopback). A name is left to the check at
 * fetch time, which resolves it. Lets a URL be refused when it is saved, not first when used.
 */
export function unfetchableHost(url: URL, policy: Pick<OutboundPolicy, "allowLoopback">): string | null {
  const host = url.hostname
    .replace(/^\[|\]$/g, "")
    .replace(/\.$/, "")
    .toLowerCase();
  if (host === "localhost" || host.endsWith(".localhost")) return policy.allowLoopback ? null : `${host} is a loopback name`;
  if (isIP(host) === 0) return null;
  if (policy.allowLoopback && isLoopback(host)) return null;
  return isForbiddenAddress(host) ? `${host} is not a public address` : null;
}

/** Resolves the URL's host and refuses it unless every address it has is a public one. */
async function assertAllowed(url: URL, policy: OutboundPolicy): Promise<void> {
  if (url.username || url.password) throw new OutboundRefused("URLs with credentials are refused");
  if (policy.trustedOrigin !== undefined && url.origin === policy.trustedOrigin && (url.protocol === "https:" || url.protocol === "http:")) return;
  const host = url.hostname.replace(/^\[|\]$/g, "");
  const addresses = isIP(host) ? [host] : (await lookup(host, { all: true, verbatim: true }).catch(() => [])).map((a) => a.address);
  if (addresses.length === 0) throw new OutboundRefused(`${url.hostname} does not resolve`);
  const loopbackOk = policy.allowLoopback && addresses.every(isLoopback);
  if (url.protocol !== "https:" && !(loopbackOk && url.protocol === "http:")) throw new OutboundRefused(`only https URLs may be fetched: ${url.href}`);
  if (!loopbackOk && addresses.some(isForbiddenAddress)) throw new OutboundRefused(`${url.hostname} resolves to a forbidden address (${addresses.join(", ")})`);
}

function withoutCredentials(init: RequestInit): RequestInit {
  const headers = new Headers(init.headers);
  for (const name of ["authorization", "cookie", "dpop", "proxy-authorization"]) headers.delete(name);
  return { ...init, headers };
}

/**
 * What a redirect does to a request's body, as browsers do: 301, 302 and 303 turn a POST into a
 * GET without it; 307 and 308 keep it, but only to the same origin: a body may hold a secret (a
 * captcha secret, a translation API key) that another origin must not receive.
 */
function redirectedBody(init: RequestInit, status: number, crossOrigin: boolean, target: string): RequestInit {
  const method = (init.method ?? "GET").toUpperCase();
  if (method === "GET" || method === "HEAD" || init.body == null) return init;
  if (status === 307 || status === 308) {
    if (crossOrigin) throw new OutboundRefused(`a ${status} redirect would carry the body to ${target}`);
    return init;
  }
  const headers = new Headers(init.headers);
  headers.delete("content-type");
  return { ...init, method: "GET", body: undefined, headers };
}

/** Bun names the failure in `code` (ECONNREFUSED, EPROTO, TimeoutError...) and the URL in `path`. */
function describe(e: unknown, url: string): string {
  const { name, message, code } = e as { name?: string; message?: string; code?: string };
  return `${url}: ${[name, code, message].filter(Boolean).join(" ")}`;
}

/**
 * The only way Cairn fetches a URL it did not write itself (ARCHITECTURE section 4, "Outbound
 * requests"): https to public addresses only, the host re-resolved and re-checked before the
 * request and before each redirect, bounded in time and size. Throws only OutboundRefused.
 */
export type Fetched = { status: number; headers: Headers; body: string; bytes: Uint8Array };

export async function safeFetch(
  raw: string,
  init: RequestInit,
  policy: OutboundPolicy,
  { maxBytes = MAX_BYTES }: { maxBytes?: number } = {},
): Promise<Fetched> {
  try {
    return await guardedFetch(raw, init, policy, maxBytes);
  } catch (e) {
    throw e instanceof OutboundRefused ? e : new OutboundRefused(describe(e, raw));
  }
}

async function guardedFetch(raw: string, init: RequestInit, policy: OutboundPolicy, maxBytes: number): Promise<Fetched> {
  let url = new URL(raw);
  let request = init;
  for (let hop = 0; hop <= MAX_REDIRECTS; hop++) {
    await assertAllowed(url, policy);
    const tls = policy.allowLoopback && policy.testCa ? { tls: { ca: policy.testCa } } : {};
    const res = await fetch(url, { ...request, ...tls, redirect: "manual", signal: AbortSignal.timeout(TIMEOUT_MS) });
    const location = res.headers.get("location");
    if (res.status >= 300 && res.status < 400 && location) {
      const next = new URL(location, url);
      // Credentials were meant for the first origin only: another origin never receives them.
      if (next.origin !== url.origin) request = withoutCredentials(request);
      request = redirectedBody(request, res.status, next.origin !== url.origin, next.href);
      url = next;
      continue;
    }
    const buffer = await res.arrayBuffer();
    if (buffer.byteLength > maxBytes) throw new OutboundRefused(`the response of ${url.href} is too large`);
    return { status: res.status, headers: res.headers, body: new TextDecoder().decode(buffer), bytes: new Uint8Array(buffer) };
  }
  throw new OutboundRefused(`too many redirects from ${raw}`);
}
