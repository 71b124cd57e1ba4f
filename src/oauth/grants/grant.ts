import type { AppContext } from "../../context/context.ts";
import type { ClientRow } from "../clients/clients.table.ts";

/** A proof of possession verified on this very request (RFC 9449 DPoP): issued tokens are bound to its key. */
export type SenderConstraint = { kind: "dpop"; jkt: string };

/** `Bearer`, or `DPoP` for tokens bound to a proof key (spec 1 section 2.4): the one place the type is named. */
export const tokenTypeFor = (constraint: SenderConstraint | null | undefined): "Bearer" | "DPoP" => (constraint?.kind === "dpop" ? "DPoP" : "Bearer");

export type TokenResponse = {
  access_token: string;
  token_type: "Bearer" | "DPoP";
  expires_in: number;
  scope: string;
  refresh_token?: string;
  id_token?: string;
  /** RFC 8693 section 2.2.1: set on a token-exchange answer only. */
  issued_token_type?: string;
};

/** A token request as a grant sees it: the authenticated client and the request it came in. */
export type TokenRequest = {
  client: ClientRow;
  /** Only the parameters the grant accepts (its `params`). */
  params: URLSearchParams;
  headers: Headers;
  method: string;
  /** The token endpoint's URL as clients address it (the issuer's), which proofs sign (DPoP `htu`). */
  url: string;
  now: number;
  /** Set when the request carried a verified proof of possession. */
  senderConstraint?: SenderConstraint;
};

export type GrantContext = Pick<AppContext, "db" | "clock" | "config" | "secrets" | "outbound" | "log" | "keys" | "identity" | "oauth" | "metrics">;

/**
 * One grant type of the token endpoint (CONVENTIONS principle 2, node-oidc-provider's
 * `lib/actions/grants`): its name, the parameters it reads, and its handler.
 */
export type Grant = {
  grantType: string;
  /** Whether a client registered without `grant_types` gets it (the code flow's pair does; others are asked for). */
  byDefault: boolean;
  params: readonly string[];
  handle(ctx: GrantContext, request: TokenRequest): Promise<TokenResponse>;
};

/** RFC 6749 section 5.2 wording for a missing parameter. */
export const missingParam = (name: string) => `missing required parameter "${name}"`;
