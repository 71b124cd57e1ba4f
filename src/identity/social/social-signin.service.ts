import { and, count, eq, gt, isNull } from "drizzle-orm";
import { isUniqueViolation } from "../../db/errors.ts";
import * as client from "openid-client";
import type { AppContext } from "../../context/context.ts";
import { changedRows } from "../../db/changes.ts";
import { withTx } from "../../db/tx.ts";
import { randomToken, sha256Hex } from "../../shared/crypto.ts";
import { audit } from "../audit/audit.service.ts";
import type { AccountMailCtx } from "../notices/account-mail.ts";
import { createSession } from "../sessions/sessions.service.ts";
import { issueMfaTicket, secondFactors } from "../signin/login.service.ts";
import { getSiteConfig } from "../site-config/site-config.ts";
import { NO_PASSWORD } from "../users/passwords.ts";
import { normalizeEmail } from "../users/user-fields.ts";
import { type UserRow, users } from "../users/users.table.ts";
import { callbackUrl, providerBySlug } from "./providers.service.ts";
import { type IdentityProviderRow, type SocialAccountRow, socialAccounts, socialLoginStates } from "./social.table.ts";
import { githubAuthorizationUrl, githubRedeem } from "./upstream-github.ts";
import { oidcAuthorizationUrl, oidcRedeem } from "./upstream-oidc.ts";
import { type FlowValues, type UpstreamCtx, type UpstreamIdentity, upstreamFailureOf } from "./upstream.ts";

type Ctx = UpstreamCtx & Pick<AppContext, "db" | "config" | "keys"> & AccountMailCtx;
/** Who signs in from where; `device`, the browser's device mark (devices/device-cookie.ts). */
type Client = { ip: string; userAgent: string; device?: string };

const STATE_TTL_MS = 10 * 60_000;

/** The short-lived cookie that ties a started sign-in to the browser that started it. */
export const SOCIAL_COOKIE = "cairn_social";
export const SOCIAL_COOKIE_SECONDS = STATE_TTL_MS / 1000;

/** A sign-in at an upstream provider that ends on a page: a status, a title, what to do, and a technical line. */
export class SocialSignInError extends Error {
  constructor(
    readonly status: number,
    readonly title: string,
    readonly paragraphs: string[],
    readonly detail: string[] = [],
  ) {
    super(title);
    this.name = "SocialSignInError";
  }
}

export type SocialOutcome =
  | { kind: "session"; user: UserRow; token: string; returnTo: string }
  | { kind: "mfa"; mfaToken: string; methods: string[]; returnTo: string }
  | { kind: "linked"; returnTo: string };

const LINKED_RETURN = "/account#linked-accounts";

async function enabledProvider(ctx: Pick<AppContext, "db">, slug: string): Promise<IdentityProviderRow> {
  const provider = await providerBySlug(ctx, slug);
  if (!provider?.enabled)
    throw new SocialSignInError(404, "This sign-in option is not available", [
      "The site's administrator removed or turned off this provider. Sign in another way.",
    ]);
  return provider;
}

/**
 * Starts a sign-in (or, with `linkUserId`, a link from the account page) at the provider: state,
 * nonce and PKCE verifier are kept one use for ten minutes, bound to a fresh browser cookie.
 */
export async function startSocialSignIn(ctx: Ctx, slug: string, { returnTo, linkUserId }: { returnTo: string; linkUserId: string | null }) {
  const provider = await enabledProvider(ctx, slug);
  const flow: FlowValues = {
    state: randomToken(32),
    nonce: randomToken(32),
    codeVerifier: client.randomPKCECodeVerifier(),
    redirectUri: callbackUrl(ctx, slug),
  };
  let location: string;
  try {
    location =
      provider.kind === "oidc"
        ? await oidcAuthorizationUrl(ctx, provider, flow)
        : githubAuthorizationUrl(provider, flow, await client.calculatePKCECodeChallenge(flow.codeVerifier));
  } catch (e) {
    throw upstreamPage(ctx, provider, e);
  }
  const browser = randomToken(32);
  const now = ctx.clock.now();
  await ctx.db
    .insert(socialLoginStates)
    .values({
      stateHash: sha256Hex(flow.state),
      providerId: provider.id,
      browserHash: sha256Hex(browser),
      nonce: flow.nonce,
      codeVerifier: flow.codeVerifier,
      returnTo,
      linkUserId,
      createdAt: now,
      expiresAt: now + STATE_TTL_MS,
    })
    .run();
  return { location, browser };
}

/** The page for an upstream failure; the technical cause goes to the log and, short, to the page. */
function upstreamPage(ctx: Pick<AppContext, "log">, provider: IdentityProviderRow, error: unknown): SocialSignInError {
  const failure = upstreamFailureOf(error);
  ctx.log.warn("sign-in at an upstream provider failed", { provider: provider.slug, kind: failure.kind, detail: failure.detail });
  if (failure.kind === "issuer_mismatch")
    return new SocialSignInError(
      400,
      `${provider.name} answered as another issuer`,
      [
        `The answer did not come from the issuer this site is configured with (${provider.issuer}), so it was refused: nothing was signed in or changed.`,
        "If this persists, tell the administrator.",
      ],
      [failure.detail],
    );
  if (failure.kind === "unverified")
    return new SocialSignInError(
      400,
      `${provider.name}'s answer could not be verified`,
      [
        `The ID token in the answer is not signed by one of ${provider.name}'s published keys, or was not issued for this sign-in, so it was refused: nothing was signed in or changed.`,
        "If this persists, tell the administrator.",
      ],
      [failure.detail],
    );
  if (failure.kind === "unreachable")
    return new SocialSignInError(424, `${provider.name} cannot be reached`, [
      `This site could not reach ${provider.name} to finish signing you in. Try again in a moment; if it persists, tell the administrator.`,
    ]);
  return new SocialSignInError(
    424,
    `${provider.name} did not confirm the sign-in`,
    [`${provider.name} refused to confirm who signed in. Start again from the sign-in page.`],
    [failure.detail],
  );
}

/** Consumes the state: one use, this provider, this browser, not expired. The conditional update decides. */
async function takeState(ctx: Ctx, provider: IdentityProviderRow, state: string, browser: string | null) {
  const now = ctx.clock.now();
  const stateHash = sha256Hex(state);
  const taken = await ctx.db
    .update(socialLoginStates)
    .set({ consumedAt: now })
    .where(
      and(
        eq(socialLoginStates.stateHash, stateHash),
        eq(socialLoginStates.providerId, provider.id),
        eq(socialLoginStates.browserHash, sha256Hex(browser ?? "")),
        isNull(socialLoginStates.consumedAt),
        gt(socialLoginStates.expiresAt, now),
      ),
    )
    .run();
  if (browser === null || state === "" || changedRows(taken) !== 1)
    throw new SocialSignInError(400, "This sign-in cannot be finished", [
      "The sign-in expired, was already finished, or was started in another browser. Nothing was changed. Start again from the sign-in page.",
    ]);
  return (await ctx.db.select().from(socialLoginStates).where(eq(socialLoginStates.stateHash, stateHash)).get()) as typeof socialLoginStates.$inferSelect;
}

/** The provider's error answer (RFC 6749 section 4.1.2.1) as a page; "access_denied" is the person's own choice. */
function providerRefused(provider: IdentityProviderRow, callback: URL): SocialSignInError {
  const error = callback.searchParams.get("error") ?? "";
  const description = (callback.searchParams.get("error_description") ?? "").slice(0, 300);
  if (error === "access_denied")
    return new SocialSignInError(403, "Sign-in was cancelled", [
      `${provider.name} did not share your account with this site, so you are not signed in. Nothing was changed.`,
    ]);
  return new SocialSignInError(
    400,
    `${provider.name} did not sign you in`,
    [`${provider.name} answered with an error. Start again from the sign-in page.`],
    [`${error.slice(0, 100)}${description ? `: ${description}` : ""}`],
  );
}

/**
 * The callback. The state is consumed before anything else, so a replayed or forged answer ends
 * here whatever it carries; then the provider's code is redeemed and the identity verified, and
 * the person is signed in, linked, or given an account (only when registration is open, and never
 * by matching an email: an existing account links only from inside it).
 */
export async function finishSocialSignIn(
  ctx: Ctx,
  slug: string,
  callback: URL,
  browser: string | null,
  signedInUserId: string | null,
  who: Client,
): Promise<SocialOutcome> {
  const provider = await enabledProvider(ctx, slug);
  const started = await takeState(ctx, provider, callback.searchParams.get("state") ?? "", browser);
  if (callback.searchParams.has("error")) throw providerRefused(provider, callback);
  const flow: FlowValues = {
    state: callback.searchParams.get("state") as string,
    nonce: started.nonce,
    codeVerifier: started.codeVerifier,
    redirectUri: callbackUrl(ctx, slug),
  };
  let identity: UpstreamIdentity;
  try {
    identity = provider.kind === "oidc" ? await oidcRedeem(ctx, provider, callback, flow) : await githubRedeem(ctx, provider, callback, flow);
  } catch (e) {
    throw upstreamPage(ctx, provider, e);
  }
  if (identity.providerUserId === "" || identity.providerUserId.length > 255)
    throw new SocialSignInError(424, `${provider.name} did not say who signed in`, ["Its answer carried no usable account id. Tell the administrator."]);
  if (started.linkUserId !== null) return link(ctx, provider, identity, started.linkUserId, signedInUserId);
  return signIn(ctx, provider, identity, started.returnTo, who);
}

const linkOf = async (ctx: Pick<AppContext, "db">, providerId: string, providerUserId: string) =>
  (await ctx.db
    .select()
    .from(socialAccounts)
    .where(and(eq(socialAccounts.providerId, providerId), eq(socialAccounts.providerUserId, providerUserId)))
    .get()) ?? null;

async function link(
  ctx: Ctx,
  provider: IdentityProviderRow,
  identity: UpstreamIdentity,
  linkUserId: string,
  signedInUserId: string | null,
): Promise<SocialOutcome> {
  // The link was started from inside the account: it finishes only in that same account.
  if (signedInUserId !== linkUserId)
    throw new SocialSignInError(403, "Sign in to link this account", [
      `You are no longer signed in to the account that started linking ${provider.name}. Sign in and start again from your account page.`,
    ]);
  const existing = await linkOf(ctx, provider.id, identity.providerUserId);
  if (existing?.userId === linkUserId) return { kind: "linked", returnTo: LINKED_RETURN };
  if (existing)
    throw new SocialSignInError(409, `That ${provider.name} account is linked to another account`, [
      `The ${provider.name} account you signed in with already signs in to a different account on this site. Unlink it there first, or use another ${provider.name} account.`,
    ]);
  const mine = await ctx.db
    .select({ id: socialAccounts.id })
    .from(socialAccounts)
    .where(and(eq(socialAccounts.userId, linkUserId), eq(socialAccounts.providerId, provider.id)))
    .get();
  if (mine)
    throw new SocialSignInError(409, `Your account already has a ${provider.name} account linked`, [
      `Unlink the one you have on your account page first, then link this one.`,
    ]);
  // Another worker may link the same account at the same moment: the unique index decides.
  if (
    !(await insertedOnce(() =>
      ctx.db
        .insert(socialAccounts)
        .values(newLink(ctx, linkUserId, provider, identity))
        .run(),
    ))
  )
    throw new SocialSignInError(409, `That ${provider.name} account was just linked`, [
      "It was linked at the same moment by another request. Reload your account page.",
    ]);
  await audit(ctx, {
    actorUserId: linkUserId,
    action: "user.social_linked",
    targetUserId: linkUserId,
    details: { provider: provider.slug, login: identity.login },
  });
  return { kind: "linked", returnTo: LINKED_RETURN };
}

/** Runs an insert that a unique index may refuse (a concurrent twin won): its result, or null. */
async function insertedOnce<T>(insert: () => Promise<T>): Promise<T | null> {
  try {
    return await insert();
  } catch (e) {
    if (isUniqueViolation(e)) return null;
    throw e;
  }
}

const newLink = (ctx: Pick<AppContext, "clock">, userId: string, provider: IdentityProviderRow, identity: UpstreamIdentity) => ({
  id: crypto.randomUUID(),
  userId,
  providerId: provider.id,
  providerUserId: identity.providerUserId,
  login: identity.login.slice(0, 200),
  email: identity.email.slice(0, 254),
  createdAt: ctx.clock.now(),
  lastUsedAt: ctx.clock.now(),
});

async function signIn(ctx: Ctx, provider: IdentityProviderRow, identity: UpstreamIdentity, returnTo: string, who: Client): Promise<SocialOutcome> {
  let existing = await linkOf(ctx, provider.id, identity.providerUserId);
  let user: UserRow;
  if (existing) user = (await ctx.db.select().from(users).where(eq(users.id, existing.userId)).get()) as UserRow;
  else {
    const created = await insertedOnce(() => createAccount(ctx, provider, identity));
    // Two first sign-ins of one person at once (two workers): the one that lost signs in to the account the other made.
    existing = created ? null : await linkOf(ctx, provider.id, identity.providerUserId);
    if (!created && !existing)
      throw new SocialSignInError(409, "The account could not be made", ["Another sign-in changed the same account at the same moment. Try again."]);
    user =
      created ??
      ((await ctx.db
        .select()
        .from(users)
        .where(eq(users.id, (existing as SocialAccountRow).userId))
        .get()) as UserRow);
  }
  if (user.disabledAt !== null) throw new SocialSignInError(403, "This account is disabled", ["Ask an administrator."]);
  if (existing)
    await ctx.db
      .update(socialAccounts)
      .set({ lastUsedAt: ctx.clock.now(), login: identity.login.slice(0, 200), email: identity.email.slice(0, 254) })
      .where(eq(socialAccounts.id, existing.id))
      .run();
  // The provider stands for the first factor; an account with a second factor still asks for it.
  const methods = await secondFactors(ctx, user.id);
  if (methods.length > 0) return { kind: "mfa", mfaToken: await issueMfaTicket(ctx, user.id, "ext"), methods, returnTo };
  const amr = ["ext"];
  const { token } = await createSession(ctx, user.id, { amr, acr: "pwd", ...who });
  await audit(ctx, { actorUserId: user.id, action: "user.signed_in", targetUserId: user.id, details: { amr, provider: provider.slug } });
  return { kind: "session", user, token, returnTo };
}

/** A free username from the provider's login or the email's local part: "ada", else "ada-2", ... */
async function freeUsername(ctx: Pick<AppContext, "db">, identity: UpstreamIdentity): Promise<string> {
  const raw = (identity.login || identity.email.split("@")[0] || "user")
    .toLowerCase()
    .replace(/[^a-z0-9_-]+/g, "-")
    .replace(/^-+|-+$/g, "");
  const base = (raw.length >= 3 ? raw : `${raw}-user`.replace(/^-/, "")).slice(0, 28);
  for (let n = 1; n < 1000; n++) {
    const candidate = n === 1 ? base : `${base}-${n}`;
    if (!(await ctx.db.select({ id: users.id }).from(users).where(eq(users.username, candidate)).get())) return candidate;
  }
  return `user-${randomToken(6)
    .toLowerCase()
    .replace(/[^a-z0-9]/g, "x")}`;
}

/**
 * First sign-in with an account no one linked: a new Cairn account, only while registration is
 * open. An email that already has an account here is refused: that person signs in to it and
 * links the provider from inside, so no one takes over an account by showing a matching email.
 */
async function createAccount(ctx: Ctx, provider: IdentityProviderRow, identity: UpstreamIdentity): Promise<UserRow> {
  const registration = (await getSiteConfig(ctx)).registration;
  const existingUsers = (await ctx.db.select({ n: count() }).from(users).get())?.n ?? 0;
  const howToLink = `If you have an account here, sign in with your password or passkey, then link ${provider.name} on your account page.`;
  if (existingUsers === 0) throw new SocialSignInError(409, "This site is not set up yet", ["The first account is made in the setup wizard at /setup."]);
  if (registration !== "open")
    throw new SocialSignInError(403, `No account here is linked to this ${provider.name} account`, [
      howToLink,
      registration === "invite" ? "New accounts on this site need an invitation." : "This site does not take new sign-ups.",
    ]);
  let email: string;
  try {
    email = normalizeEmail(identity.email);
  } catch {
    email = "";
  }
  if (email === "")
    throw new SocialSignInError(400, `${provider.name} did not share an email address`, [
      `A new account needs one. Make an email visible to this app at ${provider.name} and try again, or register with a password.`,
    ]);
  if (await ctx.db.select({ id: users.id }).from(users).where(eq(users.email, email)).get())
    throw new SocialSignInError(409, "An account with this email already exists", [`For your safety this site never joins accounts by email. ${howToLink}`]);
  const now = ctx.clock.now();
  return withTx(ctx.db, async () => {
    const user: UserRow = {
      id: crypto.randomUUID(),
      username: await freeUsername(ctx, identity),
      email,
      emailVerified: provider.trustEmail && identity.emailVerified,
      name: identity.name.trim().slice(0, 100),
      pictureUrl: "",
      passwordHash: NO_PASSWORD,
      role: "user",
      disabledAt: null,
      createdAt: now,
      updatedAt: now,
    };
    await ctx.db.insert(users).values(user).run();
    await ctx.db
      .insert(socialAccounts)
      .values(newLink(ctx, user.id, provider, identity))
      .run();
    await audit(ctx, { actorUserId: user.id, action: "user.registered", targetUserId: user.id, details: { role: "user", provider: provider.slug } });
    return user;
  });
}
