import { and, eq, gt, isNull } from "drizzle-orm";
import type { SessionPrincipal } from "../../access/principal.ts";
import type { AppContext } from "../../context/context.ts";
import { changedRows } from "../../db/changes.ts";
import { withTx } from "../../db/tx.ts";
import { randomToken, sha256Hex } from "../../shared/crypto.ts";
import { findClient, lockRedirectUri } from "../clients/clients.service.ts";
import { hasConsent, rememberConsent } from "../consents/consents.service.ts";
import { auditTeamGrant, type TeamGrant } from "../consents/team-grants.ts";
import { invalidRequest } from "../protocol/oauth.errors.ts";
import { matchRedirectUri } from "../protocol/redirect-uri.ts";
import { grantableScopes } from "../../contract/scopes.ts";
import { CODE_TTL_MS, INTERACTION_TTL_MS } from "../tokens/lifetimes.ts";
import { authorizationCodes } from "../tokens/tokens.table.ts";
import { interactions } from "./interactions.table.ts";
import { type AuthorizeRequest, redirectWith } from "./authorize-request.ts";

type Ctx = Pick<AppContext, "db" | "clock" | "config" | "oauth">;
type Session = Pick<SessionPrincipal, "user" | "session">;

/** Where the browser goes next. */
export type Next = { kind: "redirect"; url: string };

export type InteractionRow = typeof interactions.$inferSelect;

const SINGLE_TEAM = new Set(["team:read", "team:write", "team:delete", "team:member:read", "team:member:write", "team:member:profile:read"]);
export const needsTeamPicker = (scopes: string[]) => scopes.some((s) => SINGLE_TEAM.has(s));

const errorTo = (ctx: Ctx, request: AuthorizeRequest, error: string, description: string): Next => ({
  kind: "redirect",
  url: redirectWith(request.redirect_uri, ctx.config.issuer, { error, error_description: description, state: request.state }),
});

async function newInteraction(ctx: Ctx, request: AuthorizeRequest, userId: string | null): Promise<string> {
  const id = randomToken(18);
  const now = ctx.clock.now();
  await ctx.db
    .insert(interactions)
    .values({ id, clientId: request.client_id, userId, request: request as Record<string, string>, createdAt: now, expiresAt: now + INTERACTION_TTL_MS })
    .run();
  return id;
}

/**
 * True when the session is a sign-in made after this request began. Compared in milliseconds by
 * the session's creation (every sign-in makes a new session): `auth_time` has whole seconds only,
 * so a sign-in in the same second as the request would look older than it and loop back to /login.
 */
function signedInFor(session: Session, interaction: InteractionRow | null): boolean {
  return interaction !== null && session.session.createdAt >= interaction.createdAt;
}

/** Why the session must sign in again for this request, or null when it will do. */
function reauthReason(request: AuthorizeRequest, session: Session | null, interaction: InteractionRow | null, now: number): "login" | "mfa" | null {
  if (!session) return "login";
  // OIDC Core section 3.1.2.1: a sign-in made for this very request satisfies prompt=login and
  // max_age (max_age=0 included), however many seconds the user then took.
  const fresh = signedInFor(session, interaction);
  if (request.prompt?.includes("login") && !fresh) return "login";
  if (request.max_age !== undefined && !fresh && Math.floor(now / 1000) - session.session.authTime > Number(request.max_age)) return "login";
  if (request.acr_values?.split(" ").includes("mfa") && session.session.acr !== "mfa") return "mfa";
  return null;
}

/**
 * The sign-in page for an interaction. A person already signed in is told to sign in again
 * (`prompt=login`, `mfa=required`): without it the page would see the session and continue at
 * once, and the resume would send them back to it for ever.
 */
function signInAgainPath(id: string, reason: "login" | "mfa", signedIn: boolean): string {
  const query = new URLSearchParams({ return_to: `/api/oauth/interaction/${id}/resume` });
  if (reason === "mfa") query.set("mfa", "required");
  else if (signedIn) query.set("prompt", "login");
  return `/login?${query}`;
}

/**
 * The interaction ends once it led back to the client (code or error), so its resume URL cannot
 * be replayed for more codes; of concurrent resumes one wins (conditional update).
 */
async function finish(ctx: Ctx, interaction: InteractionRow | null, next: () => Next | Promise<Next>): Promise<Next> {
  if (interaction && !(await consumeInteraction(ctx, interaction.id)))
    throw invalidRequest("this sign-in request was already used; start again from the application");
  return next();
}

/**
 * The step after a valid request (or after sign-in, for an interaction): sign in, consent, or
 * straight back to the client with a code when consent was already given.
 */
export async function continueAuthorization(ctx: Ctx, request: AuthorizeRequest, session: Session | null, interaction: InteractionRow | null): Promise<Next> {
  const now = ctx.clock.now();
  const reason = reauthReason(request, session, interaction, now);
  if (reason !== null) {
    if (request.prompt === "none") return errorTo(ctx, request, "login_required", "the user must sign in");
    // A sign-in that happened after this request began and still falls short cannot be fixed by asking again.
    if (session && signedInFor(session, interaction))
      return finish(ctx, interaction, () =>
        errorTo(ctx, request, "access_denied", reason === "mfa" ? "a second factor is required and the user has none" : "the user did not sign in again"),
      );
    const id = interaction?.id ?? (await newInteraction(ctx, request, session?.user.id ?? null));
    return { kind: "redirect", url: signInAgainPath(id, reason, session !== null) };
  }
  const user = (session as Session).user;
  await assertMayLockRedirect(ctx, request.client_id, user.id);
  const scopes = request.scope.split(" ");
  const granted = grantableScopes(scopes, user.role);
  const special = needsTeamPicker(scopes) || scopes.some((s) => s.startsWith("site:"));
  if (!special && !request.prompt?.includes("consent")) {
    if (await hasConsent(ctx, user.id, request.client_id, granted)) return finish(ctx, interaction, () => issueCode(ctx, request, session as Session, granted));
    // The instance's own app (the workspace) is not a third party: its consent is implied and
    // recorded, so it lists under authorized apps. OIDC Core 3.1.2.1: prompt=consent still asks.
    if ((await findClient(ctx, request.client_id))?.firstParty)
      return finish(ctx, interaction, () => consentAndIssue(ctx, request, session as Session, granted));
  }
  if (request.prompt === "none") return errorTo(ctx, request, "consent_required", "the user has not consented to these scopes");
  if (interaction && interaction.userId !== user.id)
    await ctx.db.update(interactions).set({ userId: user.id }).where(eq(interactions.id, interaction.id)).run();
  return { kind: "redirect", url: `/consent?interaction=${interaction?.id ?? (await newInteraction(ctx, request, user.id))}` };
}

/**
 * Spec 2.2 rule 2 locks an app without redirect URIs to the first one used. Only its owner's use
 * (or the owner editing the list) may set it: anyone else would claim someone else's app for a URI
 * of their own choosing.
 */
async function assertMayLockRedirect(ctx: Ctx, clientId: string, userId: string): Promise<void> {
  const client = await findClient(ctx, clientId);
  if (client && client.redirectUris.length === 0 && client.ownerUserId !== userId)
    throw invalidRequest("this app has no redirect URI yet; only its owner's first sign-in (or the owner's app settings) sets one");
}

/** A live interaction, or null. */
export async function findInteraction(ctx: Pick<Ctx, "db" | "clock">, id: string): Promise<InteractionRow | null> {
  return (
    (await ctx.db
      .select()
      .from(interactions)
      .where(and(eq(interactions.id, id), isNull(interactions.consumedAt), gt(interactions.expiresAt, ctx.clock.now())))
      .get()) ?? null
  );
}

/** Used once: the conditional update decides between concurrent decisions. */
export async function consumeInteraction(ctx: Pick<Ctx, "db" | "clock">, id: string): Promise<boolean> {
  return (
    changedRows(
      await ctx.db
        .update(interactions)
        .set({ consumedAt: ctx.clock.now() })
        .where(and(eq(interactions.id, id), isNull(interactions.consumedAt)))
        .run(),
    ) === 1
  );
}

/**
 * The user's answer on the consent page: a code, or access_denied, for the client. The consent,
 * the audit entry of a single-team grant (spec 1 section 2.3 rule 6) and the code are one write:
 * a code that cannot be issued leaves no consent and no grant on the team's log.
 */
export async function decideConsent(
  ctx: Ctx,
  interaction: InteractionRow,
  session: Session,
  approve: boolean,
  scopes: string[],
  teamGrant?: TeamGrant,
): Promise<Next> {
  const request = interaction.request as AuthorizeRequest;
  if (!approve) return errorTo(ctx, request, "access_denied", "the user denied the request");
  return consentAndIssue(ctx, request, session, scopes, teamGrant);
}

/** The consent (given, or implied for a first-party app), its team grant's audit entry and the code: one write. */
function consentAndIssue(ctx: Ctx, request: AuthorizeRequest, session: Session, scopes: string[], teamGrant?: TeamGrant): Promise<Next> {
  return withTx(ctx.db, async () => {
    await rememberConsent(ctx, session.user.id, request.client_id, scopes);
    if (teamGrant) await auditTeamGrant(ctx, session.user.id, request.client_id, teamGrant);
    return await issueCode(ctx, request, session, scopes);
  });
}

/** RFC 6749 section 4.1.2: a one-use code bound to the client, redirect URI, PKCE and session. */
async function issueCode(ctx: Ctx, request: AuthorizeRequest, session: Session, scopes: string[]): Promise<Next> {
  const code = randomToken(32);
  const now = ctx.clock.now();
  await withTx(ctx.db, async () => {
    // The request was checked when it began; sign-in and consent take time, in which the app may
    // have been locked to another URI (spec 2.2 rule 2), edited or deleted. Checked again here,
    // inside the transaction, so a code never goes where the app no longer allows.
    const client = await findClient(ctx, request.client_id);
    if (client && client.redirectUris.length === 0) {
      await assertMayLockRedirect(ctx, client.clientId, session.user.id);
      await lockRedirectUri(ctx, client, request.redirect_uri);
    } else if (!client || matchRedirectUri(client.redirectUris, request.redirect_uri) === null)
      throw invalidRequest(`redirect_uri ${request.redirect_uri} is no longer registered for this client; start again from the application`);
    await ctx.db
      .insert(authorizationCodes)
      .values({
        codeHash: sha256Hex(code),
        clientId: request.client_id,
        userId: session.user.id,
        redirectUri: request.redirect_uri,
        scopes,
        codeChallenge: request.code_challenge ?? null,
        resources: request.resource?.split(" ") ?? [],
        nonce: request.nonce ?? null,
        sid: session.session.id,
        authTime: session.session.authTime,
        amr: session.session.amr,
        acr: session.session.acr,
        expiresAt: now + CODE_TTL_MS,
      })
      .run();
  });
  return { kind: "redirect", url: redirectWith(request.redirect_uri, ctx.config.issuer, { code, state: request.state }) };
}
