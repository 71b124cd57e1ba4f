import { lookup } from "node:dns/promises";
import { isIP } from "node:net";

/** An outbound URL refused by the guard, with the reason. */
export class OutboundRefused extends Error {}

export type OutboundPolicy = {
  /** Test-only switch: lets tests reach their own loopback servers over http. Never set from the environment. */
  allowLoopback: boolean;
  /**
   * An origin the operator configured by hand (the workspace's identity provider): it may be on
   * the LAN or loopback, over http. Only that exact origin; a redirect elsewhere is checked as usual.
   */
  trustedOrigin?: string;
};

const MAX_REDIRECTS = 3;
const MAX_BYTES = 256 * 1024;
const TIMEOUT_MS = 5000;

function ipv4Blocked(ip: string): boolean {
  const [a = 0, b = 0, c = 0] = ip.split(".").map(Number);
  return (
    a === 0 || a === 10 || a === 127 || a >= 224 || // this network, private, loopback, multicast and reserved
    (a === 100 && b >= 64 && b <= 127) || // carrier-grade NAT
    (a === 169 && b === 254) || // link-local
    (a === 172 && b >= 16 && b <= 31) ||
    (a === 192 && b === 168) ||
    (a === 192 && b === 0 && (c === 0 || c === 2)) || // IETF protocol assignments, TEST-NET-1
    (a === 198 && (b === 18 || b === 19)) || // benchmarking
    (a === 198 && b === 51 && c === 100) || // TEST-NET-2
    (a === 203 && b === 0 && c === 113) // TEST-NET-3
  );
}

function ipv6Blocked(ip: string): boolean {
  const lower = ip.toLowerCase();
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(lower);
  if (mapped) return ipv4Blocked(mapped[1] as string);
  return (
    lower === "::" || lower === "::1" ||
    /^f[cd]/.test(lower) || // unique local
    /^fe[89ab]/.test(lower) || // link-local
    lower.startsWith("ff") || // multicast
    lower.startsWith("2001:db8") || // documentation
    lower.startsWith("64:ff9b") || lower.startsWith("100::") // NAT64, discard
  );
}

/** True when an address is loopback, private, link-local, multicast, documentation or reserved. */
export function isForbiddenAddress(ip: string): boolean {
  return isIP(ip) === 6 ? ipv6Blocked(ip) : ipv4Blocked(ip);
}

const isLoopback = (ip: string) => ip === "::1" || ip.startsWith("127.");

/** Resolves the URL's host and refuses it unless every address it has is a public one. */
async function assertAllowed(url: URL, policy: OutboundPolicy): Promise<void> {
  if (url.username || url.password) throw new OutboundRefused("URLs with credentials are refused");
  if (policy.trustedOrigin !== undefined && url.origin === policy.trustedOrigin && (url.protocol === "https:" || url.protocol === "http:")) return;
  const host = url.hostname.replace(/^\[|\]$/g, "");
  const addresses = isIP(host) ? [host] : (await lookup(host, { all: true, verbatim: true }).catch(() => [])).map((a) => a.address);
  if (addresses.length === 0) throw new OutboundRefused(`${url.hostname} does not resolve`);
  const loopbackOk = policy.allowLoopback && addresses.every(isLoopback);
  if (url.protocol !== "https:" && !(loopbackOk && url.protocol === "http:")) throw new OutboundRefused("only https URLs may be fetched");
  if (url.username || url.password) throw new OutboundRefused("URLs with credentials are refused");
  if (!loopbackOk && addresses.some(isForbiddenAddress)) throw new OutboundRefused(`${url.hostname} resolves to a forbidden address`);
}

function withoutCredentials(init: RequestInit): RequestInit {
  const headers = new Headers(init.headers);
  for (const name of ["authorization", "cookie", "dpop", "proxy-authorization"]) headers.delete(name);
  return { ...init, headers };
}

/**
 * The only way Cairn fetches a URL it did not write itself (ARCHITECTURE section 4, "Outbound
 * requests"): https to public addresses only, the host re-resolved and re-checked before the
 * request and before each redirect, bounded in time and size.
 */
export async function safeFetch(raw: string, init: RequestInit, policy: OutboundPolicy): Promise<{ status: number; headers: Headers; body: string }> {
  let url = new URL(raw);
  let request = init;
  for (let hop = 0; hop <= MAX_REDIRECTS; hop++) {
    await assertAllowed(url, policy);
    const res = await fetch(url, { ...request, redirect: "manual", signal: AbortSignal.timeout(TIMEOUT_MS) });
    const location = res.headers.get("location");
    if (res.status >= 300 && res.status < 400 && location) {
      const next = new URL(location, url);
      // Credentials were meant for the first origin only: another origin never receives them.
      if (next.origin !== url.origin) request = withoutCredentials(request);
      url = next;
      continue;
    }
    const buffer = await res.arrayBuffer();
    if (buffer.byteLength > MAX_BYTES) throw new OutboundRefused("the response is too large");
    return { status: res.status, headers: res.headers, body: new TextDecoder().decode(buffer) };
  }
  throw new OutboundRefused("too many redirects");
}
