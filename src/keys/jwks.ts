import type { AppContext } from "../context/context.ts";
import { ID_TOKEN_ALGS } from "./jwt-signer.ts";
import { freshKeys, publishedJwks, signingKey } from "./keystore.ts";

/**
 * The JWKS document, serialized once and served from memory until the keys change (a rotation
 * here, in another worker or by `cairn keys rotate`) or a retired key's overlap may have ended.
 */
export async function jwksBody(ctx: Pick<AppContext, "db" | "clock" | "secrets" | "keys">): Promise<string> {
  const cached = (await freshKeys(ctx)).jwks;
  if (cached !== null) return cached;
  for (const alg of ID_TOKEN_ALGS) await signingKey(ctx, "id_token", alg);
  const body = JSON.stringify({ keys: await publishedJwks(ctx, ["id_token", "logout"]) });
  ctx.keys.jwks = body;
  return body;
}

/** Key types every JOSE library parses: what the classic set keeps. */
const CLASSIC_KTY = new Set(["RSA", "EC", "OKP"]);
let classic: { from: string; body: string } | null = null;

/**
 * The JWKS without the post-quantum keys (`kty: "AKP"`): for relying parties whose parser stops at
 * a key type it does not know, even when their tokens are RS256. Derived from the full set, so
 * both change together.
 */
export async function classicJwksBody(ctx: Pick<AppContext, "db" | "clock" | "secrets" | "keys">): Promise<string> {
  const full = await jwksBody(ctx);
  if (classic?.from !== full) {
    const keys = (JSON.parse(full) as { keys: { kty: string }[] }).keys.filter((k) => CLASSIC_KTY.has(k.kty));
    classic = { from: full, body: JSON.stringify({ keys }) };
  }
  return classic.body;
}
