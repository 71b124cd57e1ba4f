import type { AppContext } from "../../context/context.ts";
import { OutboundRefused, safeFetch } from "../../shared/safe-fetch.ts";
import type { IdentityProviderRow } from "./social.table.ts";

export type UpstreamCtx = Pick<AppContext, "secrets" | "outbound" | "clock" | "identity" | "log">;

/** Who the upstream provider says signed in. `providerUserId` is its stable id, never the email. */
export type UpstreamIdentity = {
  providerUserId: string;
  login: string;
  name: string;
  email: string;
  emailVerified: boolean;
};

/** What one round trip needs: the values the authorization request carried. */
export type FlowValues = { state: string; nonce: string; codeVerifier: string; redirectUri: string };

/**
 * Why an upstream sign-in failed, for the page the person lands on:
 * - `unreachable`: the provider did not answer (or the outbound guard refused its address);
 * - `issuer_mismatch`: the answer names another issuer than the one configured (a mix-up);
 * - `unverified`: its ID token is not signed by one of its published keys, or is not for this
 *   sign-in (issuer, audience, expiry, nonce): a forged or replayed answer;
 * - `rejected`: the provider answered but refused the code, or answered something unusable.
 */
export class UpstreamFailure extends Error {
  constructor(
    readonly kind: "unreachable" | "issuer_mismatch" | "unverified" | "rejected",
    readonly detail: string,
  ) {
    super(detail);
    this.name = "UpstreamFailure";
  }
}

export const SECRET_PURPOSE = "identity-provider-client-secret";

export const clientSecretOf = (ctx: Pick<AppContext, "secrets">, provider: IdentityProviderRow) =>
  provider.clientSecretSealed === null ? null : ctx.secrets.open(provider.clientSecretSealed, SECRET_PURPOSE);

/**
 * Every upstream call goes through the outbound guard (https to public addresses; tests alone may
 * reach loopback), answered as a fetch Response for the client library.
 */
export function guardedFetch(ctx: Pick<AppContext, "outbound">) {
  return async (url: string, init: { method?: string; headers?: HeadersInit; body?: unknown }): Promise<Response> => {
    const fetched = await safeFetch(url, { method: init.method, headers: init.headers, body: (init.body ?? undefined) as BodyInit | undefined }, ctx.outbound);
    const headers = new Headers(fetched.headers);
    // The body is already decoded and whole: its transfer headers no longer describe it.
    for (const name of ["content-encoding", "content-length", "transfer-encoding"]) headers.delete(name);
    return new Response(fetched.bytes as Uint8Array<ArrayBuffer>, { status: fetched.status, headers });
  };
}

/** An outbound refusal is "unreachable"; anything else from a client library is the provider's answer. */
export function upstreamFailureOf(e: unknown): UpstreamFailure {
  if (e instanceof UpstreamFailure) return e;
  const cause = (e as { cause?: unknown }).cause;
  if (e instanceof OutboundRefused || cause instanceof OutboundRefused)
    return new UpstreamFailure("unreachable", (e instanceof OutboundRefused ? e : (cause as OutboundRefused)).detail);
  return new UpstreamFailure("rejected", (e as Error).message);
}
