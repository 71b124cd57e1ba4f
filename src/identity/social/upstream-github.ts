import { safeFetch } from "../../shared/safe-fetch.ts";
import { type FlowValues, type UpstreamCtx, type UpstreamIdentity, UpstreamFailure, clientSecretOf, upstreamFailureOf } from "./upstream.ts";
import type { IdentityProviderRow } from "./social.table.ts";

const API_HEADERS = { accept: "application/vnd.github+json", "x-github-api-version": "2022-11-28", "user-agent": "Cairn" };

/** GitHub's OAuth app flow (not OpenID Connect): authorize at the web origin, with state and PKCE. */
export function githubAuthorizationUrl(provider: IdentityProviderRow, flow: FlowValues, codeChallenge: string): string {
  const url = new URL("/login/oauth/authorize", provider.webUrl);
  url.search = new URLSearchParams({
    client_id: provider.clientId,
    redirect_uri: flow.redirectUri,
    scope: provider.scopes,
    state: flow.state,
    code_challenge: codeChallenge,
    code_challenge_method: "S256",
  }).toString();
  return url.href;
}

async function getJson(ctx: UpstreamCtx, url: string, token: string): Promise<{ status: number; data: unknown }> {
  const res = await safeFetch(url, { headers: { ...API_HEADERS, authorization: `Bearer ${token}` } }, ctx.outbound);
  try {
    return { status: res.status, data: JSON.parse(res.body) };
  } catch {
    throw new UpstreamFailure("rejected", `${url} answered ${res.status} with no JSON`);
  }
}

type GithubEmail = { email?: unknown; primary?: unknown; verified?: unknown };

/**
 * The callback: the code is redeemed at `<web>/login/oauth/access_token` (GitHub answers errors
 * with 200 and an `error` field), then the account read from `<api>/user`. The email is the
 * primary verified one of `/user/emails` (scope `user:email`), else the profile's public email.
 */
export async function githubRedeem(ctx: UpstreamCtx, provider: IdentityProviderRow, callback: URL, flow: FlowValues): Promise<UpstreamIdentity> {
  try {
    const code = callback.searchParams.get("code");
    if (!code) throw new UpstreamFailure("rejected", "the answer carries no code");
    const body = new URLSearchParams({
      client_id: provider.clientId,
      client_secret: clientSecretOf(ctx, provider) ?? "",
      code,
      redirect_uri: flow.redirectUri,
      code_verifier: flow.codeVerifier,
    });
    const res = await safeFetch(
      new URL("/login/oauth/access_token", provider.webUrl).href,
      { method: "POST", headers: { accept: "application/json", "content-type": "application/x-www-form-urlencoded", "user-agent": "Cairn" }, body },
      ctx.outbound,
    );
    let answer: { access_token?: unknown; error?: unknown; error_description?: unknown };
    try {
      answer = JSON.parse(res.body);
    } catch {
      throw new UpstreamFailure("rejected", `the token endpoint answered ${res.status} with no JSON`);
    }
    if (typeof answer.access_token !== "string")
      throw new UpstreamFailure("rejected", `the code was refused: ${String(answer.error_description ?? answer.error ?? res.status)}`);
    const token = answer.access_token;
    const user = await getJson(ctx, `${provider.apiUrl}/user`, token);
    const profile = user.data as { id?: unknown; login?: unknown; name?: unknown; email?: unknown };
    if (user.status !== 200 || (typeof profile.id !== "number" && typeof profile.id !== "string"))
      throw new UpstreamFailure("rejected", `${provider.apiUrl}/user answered ${user.status}`);
    const emails = await getJson(ctx, `${provider.apiUrl}/user/emails`, token);
    const list = emails.status === 200 && Array.isArray(emails.data) ? (emails.data as GithubEmail[]) : [];
    const verified = list.filter((e) => e.verified === true && typeof e.email === "string");
    const chosen = verified.find((e) => e.primary === true) ?? verified[0];
    return {
      providerUserId: String(profile.id),
      login: typeof profile.login === "string" ? profile.login : "",
      name: typeof profile.name === "string" ? profile.name : "",
      email: chosen ? (chosen.email as string) : typeof profile.email === "string" ? profile.email : "",
      emailVerified: chosen !== undefined,
    };
  } catch (e) {
    throw upstreamFailureOf(e);
  }
}
