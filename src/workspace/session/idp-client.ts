import * as client from "openid-client";
import type { AppContext } from "../../context/context.ts";
import { getAppConfig, readIdpClientSecret } from "../../settings/init/init.service.ts";

type Ctx = Pick<AppContext, "db" | "clock" | "config" | "secrets" | "configAccess" | "workspace">;

const CACHE_MS = 5 * 60_000;
/** The provider's discovery, kept for five minutes (ctx.workspace.idp). */
export type IdpState = {
  discovery: { key: string; at: number; config: client.Configuration } | null;
  renewing: Map<string, Promise<string | null>>;
  /** Until when the provider is left alone by asks that could wait (session-check.ts): it failed to answer. */
  unavailableUntil?: number;
};

/**
 * The workspace as a relying party of the identity provider named in the app config (this
 * instance after setup, or another Cairn). Discovery is cached for five minutes. A plain-http
 * provider is allowed because the operator configured it (a homelab on localhost, say).
 */
export async function idpConfiguration(ctx: Ctx): Promise<{ config: client.Configuration; usePkce: boolean; redirectUri: string }> {
  const app = await getAppConfig(ctx);
  if (!app.idp_base_url || !app.idp_client_id || !app.idp_redirect_uri) throw new WorkspaceNotConfigured();
  const secret = await readIdpClientSecret(ctx);
  const key = `${app.idp_base_url}|${app.idp_client_id}|${secret !== "" ? "secret" : "public"}`;
  const cached = ctx.workspace.idp.discovery;
  if (!cached || cached.key !== key || ctx.clock.now() - cached.at > CACHE_MS) {
    const auth = secret ? client.ClientSecretBasic(secret) : client.None();
    const options = app.idp_base_url.startsWith("http:") ? { execute: [client.allowInsecureRequests] } : undefined;
    const config = await client.discovery(new URL(app.idp_base_url), app.idp_client_id, { id_token_signed_response_alg: "ML-DSA-65" }, auth, options);
    ctx.workspace.idp.discovery = { key, at: ctx.clock.now(), config };
  }
  return { config: (ctx.workspace.idp.discovery as NonNullable<IdpState["discovery"]>).config, usePkce: app.use_pkce, redirectUri: app.idp_redirect_uri };
}

/** The app config names no identity provider client yet (setup has not run). */
export class WorkspaceNotConfigured extends Error {}
