import { badForwardedRequest } from "./check.errors.ts";

/** The request a proxy asks about: the URL as the browser asked for it, and what the rules read of it. */
export type ProtectedRequest = { url: string; host: string; path: string; method: string };

/** RFC 9110 section 5.6.2: a method is a token. */
const METHOD = /^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,32}$/;
/** A host as a Host header carries it: a name or address and a port; the rules decide whether it is one of theirs. */
const HOST = /^[A-Za-z0-9._~[\]:-]{1,260}$/;
/** Visible ASCII only: what a proxy forwards of a request target, and nothing that could split a header or hide a host. */
const TARGET = /^\/[\x21-\x7e]{0,8191}$/;
const ABSOLUTE = /^(https?):\/\/([^/?#]*)(\/[\x21-\x7e]*)?$/i;

function header(headers: Headers, name: string): string {
  const value = headers.get(name);
  if (value === null || value === "") throw badForwardedRequest(`${name} is missing: the proxy must send it (see the README's forward auth section).`);
  return value;
}

function methodOf(headers: Headers, name: string): string {
  const method = headers.get(name);
  if (method === null || method === "") return "GET";
  if (!METHOD.test(method)) throw badForwardedRequest(`${name} is not an HTTP method.`);
  return method.toUpperCase();
}

function assemble(proto: string, host: string, target: string, method: string, names: { host: string; target: string }): ProtectedRequest {
  // One value, not a list: a proxy that appends to a client's header would let the client choose the host.
  if (!HOST.test(host)) throw badForwardedRequest(`${names.host} is not one host name (a list, user info or a path is refused).`);
  if (!TARGET.test(target)) throw badForwardedRequest(`${names.target} must be a path starting with / in visible ASCII, at most 8192 characters.`);
  const query = target.indexOf("?");
  return { url: `${proto}://${host}${target}`, host, path: query === -1 ? target : target.slice(0, query), method };
}

/** Caddy's `forward_auth` and Traefik's `ForwardAuth`: `X-Forwarded-Proto`, `-Host`, `-Uri` and `-Method`. */
export function fromForwardedHeaders(headers: Headers): ProtectedRequest {
  const proto = header(headers, "X-Forwarded-Proto").toLowerCase();
  if (proto !== "http" && proto !== "https") throw badForwardedRequest("X-Forwarded-Proto must be http or https.");
  const host = header(headers, "X-Forwarded-Host");
  const target = header(headers, "X-Forwarded-Uri");
  return assemble(proto, host, target, methodOf(headers, "X-Forwarded-Method"), { host: "X-Forwarded-Host", target: "X-Forwarded-Uri" });
}

/**
 * An absolute URL read as a request to a protected app (`url` names the field in errors): nginx's
 * `X-Original-URL`, the URL `continue` goes back to, the one the admin tests.
 */
export function requestAt(url: string, method: string, field: string): ProtectedRequest {
  const m = url.length <= 8192 ? ABSOLUTE.exec(url) : null;
  if (m === null) throw badForwardedRequest(`${field} must be an absolute http or https URL in visible ASCII.`);
  const [, proto = "", host = "", target = "/"] = m;
  return assemble(proto.toLowerCase(), host, target, method, { host: `${field}'s host`, target: `${field}'s path` });
}

/** nginx's `auth_request`: `X-Original-URL` (and `X-Original-Method`) alone; X-Forwarded-Host is never read. */
export function fromOriginalUrl(headers: Headers): ProtectedRequest {
  return requestAt(header(headers, "X-Original-URL"), methodOf(headers, "X-Original-Method"), "X-Original-URL");
}
