import type { AppContext } from "../context/context.ts";
import { badInput, missing } from "../identity/users/identity.errors.ts";
import { clientView, createClient } from "../oauth/clients/clients.service.ts";
import type { ClientRow } from "../oauth/clients/clients.table.ts";
import { serverMetadata } from "../oauth/endpoints/discovery.ts";
import { OAUTH_PATHS } from "../oauth/protocol/paths.ts";
import { randomToken } from "../shared/crypto.ts";
import { findIntegration } from "./catalog.ts";
import { type Answer, baseUrlFrom, registrationFor, renderSetup, type SnippetValues } from "./fill.ts";
import type { Integration } from "./integration.ts";
import { type ProxyKind, proxySnippet } from "./proxy-snippets.ts";

type Ctx = Pick<AppContext, "db" | "clock" | "config" | "oauth">;

/** Shown where the secret goes once it can no longer be shown (it is kept only as a hash). */
export const SECRET_HIDDEN = "<client secret: shown once at registration; rotate it to get a new one>";

export function entry(id: string): Integration {
  const found = findIntegration(id);
  if (!found) throw missing("Integration");
  return found;
}

/** The endpoints an entry's app is pointed at: discovery's, and the JWKS its parser can read. */
export function providerEndpoints(ctx: Pick<Ctx, "config">, e: Integration) {
  const meta = serverMetadata(ctx.config);
  return {
    issuer: meta.issuer,
    discovery_url: `${meta.issuer}/.well-known/openid-configuration`,
    authorization_endpoint: meta.authorization_endpoint,
    token_endpoint: meta.token_endpoint,
    userinfo_endpoint: meta.userinfo_endpoint,
    end_session_endpoint: meta.end_session_endpoint,
    jwks_uri: e.jwks === "classic" ? `${meta.issuer}${OAUTH_PATHS.jwksClassic}` : meta.jwks_uri,
  };
}

/** Every placeholder's value for this app; `secret` only right after registration (else a note where it goes). */
export function snippetValues(ctx: Pick<Ctx, "config">, e: Integration, client: ClientRow, secret: string | null): SnippetValues {
  const redirect = client.redirectUris[0]?.uri ?? "";
  const base = baseUrlFrom(e, redirect) ?? "";
  const scopes = e.scopes.filter((s) => client.scopes.includes(s));
  return {
    ...providerEndpoints(ctx, e),
    client_id: client.clientId,
    client_secret: client.isPublic ? "" : (secret ?? SECRET_HIDDEN),
    base_url: base,
    host: base ? new URL(base).host : "",
    redirect_uri: redirect,
    post_logout_redirect_uri: client.postLogoutRedirectUris[0] ?? "",
    scopes: scopes.join(" "),
    scopes_comma: scopes.join(","),
    random_secret: randomToken(32),
  };
}

/** What to paste into the app registered from entry `e`, with the real values. */
function setupFor(ctx: Ctx, e: Integration, client: ClientRow, secret: string | null) {
  const values = snippetValues(ctx, e, client, secret);
  return { integration: { id: e.id, name: e.name, docs_url: e.docs_url }, values, ...renderSetup(e, values) };
}

/** The app's setup, or null when it was not registered from the catalog. */
export function setupOf(ctx: Ctx, client: ClientRow, secret: string | null) {
  const e = client.integration ? findIntegration(client.integration) : null;
  return e ? setupFor(ctx, e, client, secret) : null;
}

/** Registers an app from a catalog entry: its exact redirect URIs, method, algorithm and scopes. */
export async function registerFromCatalog(ctx: Ctx, by: { ownerUserId: string; verified: boolean }, id: string, answer: Answer) {
  const e = entry(id);
  if (e.kind === "forward_auth") throw badInput(`${e.name} registers no app: an administrator writes its configuration in Administration, Forward auth.`);
  const { client, secret } = await createClient(ctx, by.ownerUserId, registrationFor(e, answer), { integration: e.id, verified: by.verified });
  return { ...clientView(client), ...(secret ? { client_secret: secret } : {}), setup: setupFor(ctx, e, client, secret) };
}

/** The forward-auth configuration of `kind` protecting the app at `app_url`, pointed at this Cairn. */
export function forwardAuthSnippet(ctx: Pick<Ctx, "config">, ask: { kind: ProxyKind; app_url: string; upstream: string }) {
  return proxySnippet(ask.kind, { issuer: ctx.config.issuer, appUrl: ask.app_url, upstream: ask.upstream });
}
