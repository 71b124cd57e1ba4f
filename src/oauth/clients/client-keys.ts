import { createLocalJWKSet, type JSONWebKeySet } from "jose";
import type { AppContext } from "../../context/context.ts";
import { safeFetch } from "../../shared/safe-fetch.ts";
import type { ClientRow } from "./clients.table.ts";

const CACHE_MS = 5 * 60_000;

/**
 * An Ed25519 key registered as "EdDSA" also verifies assertions labelled with the
 * fully-specified "Ed25519" (RFC 9864), and the other way round: the label is dropped so key
 * selection goes by key type and curve.
 */
function keySet(jwks: JSONWebKeySet) {
  return createLocalJWKSet({ keys: jwks.keys.map((k) => (k.kty === "OKP" && (k.alg === "EdDSA" || k.alg === "Ed25519") ? { ...k, alg: undefined } : k)) });
}

/** A client's fetched `jwks_uri` answer, by URL. */
export type FetchedKeys = Map<string, { at: number; jwks: JSONWebKeySet }>;

/**
 * The client's public keys: its inline `jwks`, or its `jwks_uri` fetched through the SSRF guard
 * and cached for five minutes (refetched at once when `refresh` is asked, e.g. an unknown kid).
 */
export async function clientKeySet(ctx: Pick<AppContext, "clock" | "outbound" | "oauth">, client: ClientRow, refresh = false) {
  const fetched = ctx.oauth.clientKeys;
  if (client.jwks) return keySet(client.jwks as JSONWebKeySet);
  if (!client.jwksUri) return null;
  const hit = fetched.get(client.jwksUri);
  if (hit && !refresh && ctx.clock.now() - hit.at < CACHE_MS) return keySet(hit.jwks);
  const res = await safeFetch(client.jwksUri, { headers: { accept: "application/json" } }, ctx.outbound);
  if (res.status !== 200) throw new Error(`jwks_uri answered ${res.status}`);
  const jwks = JSON.parse(res.body) as JSONWebKeySet;
  if (!Array.isArray(jwks.keys)) throw new Error("jwks_uri did not answer a JWK Set");
  fetched.set(client.jwksUri, { at: ctx.clock.now(), jwks });
  if (fetched.size > 1000) fetched.delete(fetched.keys().next().value as string);
  return keySet(jwks);
}
