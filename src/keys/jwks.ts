import type { AppContext } from "../context/context.ts";
import { ID_TOKEN_ALGS } from "./jwt-signer.ts";
import { freshKeys, publishedJwks, signingKey } from "./keystore.ts";

/**
 * The JWKS document, serialized once and served from memory until the keys change (a rotation
 * here, in another worker or by `cairn keys rotate`) or a retired key's overlap may have ended.
 */
export async function jwksBody(ctx: Pick<AppContext, "db" | "clock" | "secrets" | "keys">): Promise<string> {
  const cached = freshKeys(ctx).jwks;
  if (cached !== null) return cached;
  for (const alg of ID_TOKEN_ALGS) await signingKey(ctx, "id_token", alg);
  const body = JSON.stringify({ keys: publishedJwks(ctx, ["id_token", "logout"]) });
  ctx.keys.jwks = body;
  return body;
}
