import type { AppContext } from "../context/context.ts";
import { ID_TOKEN_ALGS } from "./jwt-signer.ts";
import { publishedJwks, signingKey } from "./keystore.ts";

const REFRESH_MS = 60_000;

/**
 * The JWKS document, serialized once and served from memory; re-read every minute so keys a
 * rotation (possibly by `cairn keys rotate` in another process) adds or retires show up.
 */
export async function jwksBody(ctx: Pick<AppContext, "db" | "clock" | "secrets" | "keys">): Promise<string> {
  const cached = ctx.keys.jwks;
  if (cached && ctx.clock.now() - cached.at < REFRESH_MS) return cached.body;
  for (const alg of ID_TOKEN_ALGS) await signingKey(ctx, "id_token", alg);
  const body = JSON.stringify({ keys: publishedJwks(ctx, ["id_token", "logout"]) });
  ctx.keys.jwks = { at: ctx.clock.now(), body };
  return body;
}
