// @simplewebauthn/server's certificate code needs the Reflect polyfill installed before it loads;
// in the compiled executable its lazily loaded chunk cannot be relied on to do that itself.
import "reflect-metadata";
import type {
  AuthenticationResponseJSON,
  RegistrationResponseJSON,
  VerifiedAuthenticationResponse,
  VerifiedRegistrationResponse,
} from "@simplewebauthn/server";
import { and, eq, gt, isNull } from "drizzle-orm";
import type { AppContext } from "../../context/context.ts";
import { changedRows } from "../../db/changes.ts";
import { randomToken } from "../../shared/crypto.ts";
import { audit } from "../audit/audit.service.ts";
import { badInput, missing } from "../users/identity.errors.ts";
import { withTx } from "../../db/tx.ts";
import type { AccountMailCtx } from "../notices/account-mail.ts";
import type { NoticeOrigin } from "../notices/notice-origin.ts";
import { securityNotice } from "../notices/security-notices.ts";
import type { UserRow } from "../users/users.table.ts";
import { passkeys, webauthnChallenges } from "./passkeys.table.ts";

type Ctx = Pick<AppContext, "db" | "clock" | "config">;
type Purpose = "register" | "login" | "mfa" | "step-up";
/** A second factor: at sign-in (`mfa`), or re-confirming one action for an app (`step-up`); their challenges never stand in for each other. */
type FactorPurpose = "mfa" | "step-up";

/** Loaded on the first passkey ceremony: the library is large, and most starts never need it. */
const webauthn = () => import("@simplewebauthn/server");

const CHALLENGE_TTL_MS = 5 * 60_000;

/** The relying party is this instance: RP ID from the issuer's host, origin from its URL. */
const rp = (ctx: Ctx) => ({ id: new URL(ctx.config.issuer).hostname, origin: new URL(ctx.config.issuer).origin });

async function storeChallenge(ctx: Ctx, challenge: string, purpose: Purpose, userId: string | null): Promise<string> {
  const id = randomToken(18);
  await ctx.db
    .insert(webauthnChallenges)
    .values({ id, challenge, purpose, userId, expiresAt: ctx.clock.now() + CHALLENGE_TTL_MS })
    .run();
  return id;
}

/** One use: the conditional update decides, then the stored challenge is returned. */
async function consumeChallenge(ctx: Ctx, id: string, purpose: Purpose, userId: string | null): Promise<string> {
  const now = ctx.clock.now();
  const owner = userId === null ? isNull(webauthnChallenges.userId) : eq(webauthnChallenges.userId, userId);
  const taken = await ctx.db
    .update(webauthnChallenges)
    .set({ consumedAt: now })
    .where(
      and(
        eq(webauthnChallenges.id, id),
        eq(webauthnChallenges.purpose, purpose),
        owner,
        isNull(webauthnChallenges.consumedAt),
        gt(webauthnChallenges.expiresAt, now),
      ),
    )
    .run();
  if (changedRows(taken) !== 1) throw badInput("The passkey challenge is unknown, used or expired. Start again.");
  return ((await ctx.db.select({ c: webauthnChallenges.challenge }).from(webauthnChallenges).where(eq(webauthnChallenges.id, id)).get()) as { c: string }).c;
}

export async function listPasskeys(ctx: Pick<Ctx, "db">, userId: string) {
  return (await ctx.db.select().from(passkeys).where(eq(passkeys.userId, userId)).all()).map((p) => ({
    id: p.id,
    name: p.name,
    created_at: p.createdAt,
    last_used_at: p.lastUsedAt,
    device_type: p.deviceType,
    backed_up: p.backedUp,
  }));
}

export async function hasPasskeys(ctx: Pick<Ctx, "db">, userId: string): Promise<boolean> {
  return (await ctx.db.select({ id: passkeys.id }).from(passkeys).where(eq(passkeys.userId, userId)).get()) !== undefined;
}

export async function passkeyRegistrationOptions(ctx: Ctx & Pick<AppContext, "siteBranding">, user: UserRow) {
  const existing = await ctx.db.select({ id: passkeys.id, transports: passkeys.transports }).from(passkeys).where(eq(passkeys.userId, user.id)).all();
  const options = await (await webauthn()).generateRegistrationOptions({
    rpName: (await ctx.siteBranding()).site_name,
    rpID: rp(ctx).id,
    userName: user.username,
    userDisplayName: user.name || user.username,
    userID: new TextEncoder().encode(user.id),
    attestationType: "none",
    excludeCredentials: existing.map((c) => ({ id: c.id, transports: c.transports as never })),
    // Discoverable, so the passkey can sign in without a username.
    authenticatorSelection: { residentKey: "required", userVerification: "preferred" },
  });
  return { challenge_id: await storeChallenge(ctx, options.challenge, "register", user.id), options };
}

export async function registerPasskey(
  ctx: Ctx & AccountMailCtx,
  user: UserRow,
  input: { challenge_id: string; name: string; response: RegistrationResponseJSON },
  origin: NoticeOrigin,
) {
  const name = input.name.trim();
  if (name === "" || name.length > 64) throw badInput("Name the passkey (1 to 64 characters).");
  const expectedChallenge = await consumeChallenge(ctx, input.challenge_id, "register", user.id);
  let verification: VerifiedRegistrationResponse;
  try {
    verification = await (await webauthn()).verifyRegistrationResponse({
      response: input.response,
      expectedChallenge,
      expectedOrigin: rp(ctx).origin,
      expectedRPID: rp(ctx).id,
      requireUserVerification: false,
    });
  } catch (e) {
    throw badInput(`The passkey could not be verified: ${(e as Error).message}`);
  }
  if (!verification.verified) throw badInput("The passkey could not be verified.");
  const { credential, credentialDeviceType, credentialBackedUp } = verification.registrationInfo;
  if (await ctx.db.select({ id: passkeys.id }).from(passkeys).where(eq(passkeys.id, credential.id)).get())
    throw badInput("This passkey is already registered.");
  const row = {
    id: credential.id,
    userId: user.id,
    name,
    publicKey: Buffer.from(credential.publicKey).toString("base64url"),
    counter: credential.counter,
    transports: credential.transports ?? [],
    deviceType: credentialDeviceType,
    backedUp: credentialBackedUp,
    createdAt: ctx.clock.now(),
    lastUsedAt: null,
  };
  await withTx(ctx.db, async () => {
    await ctx.db.insert(passkeys).values(row).run();
    await audit(ctx, { actorUserId: user.id, action: "passkey.added", targetUserId: user.id, details: { name } });
    await securityNotice(ctx, user.id, { type: "passkey_added", name }, origin);
  });
  return { id: row.id, name, created_at: row.createdAt, last_used_at: null, device_type: row.deviceType, backed_up: row.backedUp };
}

/** Options for a sign-in: any discoverable passkey (`userId` null) or one of the user's (second factor). */
export async function passkeyAuthenticationOptions(ctx: Ctx, userId: string | null, purpose: FactorPurpose = "mfa") {
  const allow =
    userId === null ? [] : await ctx.db.select({ id: passkeys.id, transports: passkeys.transports }).from(passkeys).where(eq(passkeys.userId, userId)).all();
  const options = await (await webauthn()).generateAuthenticationOptions({
    rpID: rp(ctx).id,
    userVerification: "preferred",
    allowCredentials: allow.map((c) => ({ id: c.id, transports: c.transports as never })),
  });
  return { challenge_id: await storeChallenge(ctx, options.challenge, userId === null ? "login" : purpose, userId), options };
}

/**
 * Verifies an assertion against a stored passkey (of `userId` when given) and moves its
 * counter forward; a counter that does not grow (a cloned authenticator) is refused.
 */
export async function verifyPasskeyAssertion(
  ctx: Ctx,
  input: { challenge_id: string; response: AuthenticationResponseJSON },
  userId: string | null,
  purpose: FactorPurpose = "mfa",
) {
  const expectedChallenge = await consumeChallenge(ctx, input.challenge_id, userId === null ? "login" : purpose, userId);
  // The response is the browser's JSON as sent: anything but a string id names no passkey.
  const id: unknown = input.response?.id;
  const stored = typeof id === "string" ? await ctx.db.select().from(passkeys).where(eq(passkeys.id, id)).get() : undefined;
  if (!stored || (userId !== null && stored.userId !== userId)) throw badInput("This passkey is not registered here.");
  let verification: VerifiedAuthenticationResponse;
  try {
    verification = await (await webauthn()).verifyAuthenticationResponse({
      response: input.response,
      expectedChallenge,
      expectedOrigin: rp(ctx).origin,
      expectedRPID: rp(ctx).id,
      credential: { id: stored.id, publicKey: Buffer.from(stored.publicKey, "base64url"), counter: stored.counter, transports: stored.transports as never },
      requireUserVerification: false,
    });
  } catch (e) {
    throw badInput(`The passkey could not be verified: ${(e as Error).message}`);
  }
  if (!verification.verified) throw badInput("The passkey could not be verified.");
  const moved = await ctx.db
    .update(passkeys)
    .set({ counter: verification.authenticationInfo.newCounter, lastUsedAt: ctx.clock.now() })
    .where(and(eq(passkeys.id, stored.id), eq(passkeys.counter, stored.counter)))
    .run();
  if (changedRows(moved) !== 1) throw badInput("The passkey was used twice at once.");
  return { userId: stored.userId, userVerified: verification.authenticationInfo.userVerified };
}

export async function renamePasskey(ctx: Pick<Ctx, "db">, userId: string, id: string, name: string) {
  const trimmed = name.trim();
  if (trimmed === "" || trimmed.length > 64) throw badInput("Name the passkey (1 to 64 characters).");
  if (
    changedRows(
      await ctx.db
        .update(passkeys)
        .set({ name: trimmed })
        .where(and(eq(passkeys.id, id), eq(passkeys.userId, userId)))
        .run(),
    ) !== 1
  )
    throw missing("Passkey");
}

export async function deletePasskey(ctx: Pick<Ctx, "db" | "clock"> & AccountMailCtx, userId: string, id: string, origin: NoticeOrigin) {
  await withTx(ctx.db, async () => {
    const removed = await ctx.db
      .delete(passkeys)
      .where(and(eq(passkeys.id, id), eq(passkeys.userId, userId)))
      .returning({ name: passkeys.name })
      .get();
    if (!removed) throw missing("Passkey");
    await audit(ctx, { actorUserId: userId, action: "passkey.removed", targetUserId: userId, details: { id } });
    await securityNotice(ctx, userId, { type: "passkey_removed", name: removed.name }, origin);
  });
}
