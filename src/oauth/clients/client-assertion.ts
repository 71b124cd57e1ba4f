import { decodeJwt, errors, jwtVerify } from "jose";
import type { AppContext } from "../../context/context.ts";
import { changedRows } from "../../db/changes.ts";
import { AppError } from "../../shared/errors.ts";
import { OutboundRefused } from "../../shared/safe-fetch.ts";
import { invalidClient, JWKS_UNREACHABLE } from "../protocol/oauth.errors.ts";
import { clientKeySet } from "./client-keys.ts";
import type { ClientRow } from "./clients.table.ts";

// "Ed25519" is the fully-specified name of EdDSA over Ed25519 (RFC 9864) that newer clients send.
export const ASSERTION_ALGS = ["RS256", "ES256", "EdDSA", "Ed25519"];
/** A client assertion may live at most this long: "short exp" (RFC 7523 section 3). */
const MAX_LIFETIME_S = 300;

/** The `iss` of an assertion, before it is verified: which client it claims to be. */
export function assertionIssuer(assertion: string): string | null {
  try {
    const iss = decodeJwt(assertion).iss;
    return typeof iss === "string" ? iss : null;
  } catch {
    return null;
  }
}

type AssertionCtx = Pick<AppContext, "db" | "clock" | "config" | "outbound" | "log" | "oauth">;

/**
 * The client's keys, or invalid_client with one fixed text: how the fetch of its jwks_uri went
 * (refused by the guard, connection refused, TLS, status, body) is logged, never answered, or the
 * token endpoint would map what listens at an address.
 */
async function keysOf(ctx: AssertionCtx, client: ClientRow, refresh: boolean) {
  try {
    return await clientKeySet(ctx, client, refresh);
  } catch (e) {
    const detail = e instanceof OutboundRefused ? e.detail : (e as Error).message;
    ctx.log.warn("client jwks_uri could not be used", { client_id: client.clientId, detail });
    throw invalidClient(`jwks_uri: ${detail}`, JWKS_UNREACHABLE);
  }
}

/**
 * RFC 7523 section 3 private_key_jwt: signed by one of the client's keys (RS256, ES256, EdDSA),
 * iss = sub = client_id, aud the issuer or the token endpoint, a short exp, and a jti used once
 * (claimed by a primary-key insert, so of identical concurrent assertions one passes).
 */
export async function verifyClientAssertion(ctx: AssertionCtx, client: ClientRow, assertion: string): Promise<void> {
  const verify = async (refresh: boolean) => {
    const keys = await keysOf(ctx, client, refresh);
    if (!keys) throw invalidClient("the client has no registered keys");
    return jwtVerify(assertion, keys, {
      issuer: client.clientId,
      subject: client.clientId,
      audience: [ctx.config.issuer, `${ctx.config.issuer}/api/oauth/token`],
      algorithms: ASSERTION_ALGS,
      currentDate: new Date(ctx.clock.now()),
      requiredClaims: ["exp", "jti"],
    });
  };
  let payload: Awaited<ReturnType<typeof verify>>["payload"];
  try {
    payload = (await verify(false)).payload;
  } catch (e) {
    if (e instanceof AppError) throw e;
    // A key rotated at the client: fetch its jwks_uri again once before refusing.
    if (!(e instanceof errors.JWKSNoMatchingKey) || !client.jwksUri) throw invalidClient(`client assertion refused: ${(e as Error).message}`);
    payload = await verify(true).then(
      (r) => r.payload,
      (e2: Error) => {
        throw e2 instanceof AppError ? e2 : invalidClient(`client assertion refused: ${e2.message}`);
      },
    );
  }
  const now = Math.floor(ctx.clock.now() / 1000);
  if ((payload.exp as number) - now > MAX_LIFETIME_S) throw invalidClient(`client assertion exp must be within ${MAX_LIFETIME_S} seconds`);
  const claimed = await ctx.oauth.jtiClaims.assertion.run({ key: `${client.clientId}:${payload.jti}`, expiresAt: (payload.exp as number) * 1000 });
  if (changedRows(claimed) !== 1) throw invalidClient("client assertion replayed (jti already used)");
}
