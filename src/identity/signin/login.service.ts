import { and, eq, gt, isNull, or } from "drizzle-orm";
import type { SecondFactorMethod } from "../../contract/api/signin.ts";
import type { AppContext } from "../../context/context.ts";
import { changedRows } from "../../db/changes.ts";
import { audit } from "../audit/audit.service.ts";
import { badInput, signInPaused, wrongCredentials } from "../users/identity.errors.ts";
import { denied } from "../../access/access.errors.ts";
import { hasPasskeys, passkeyAuthenticationOptions, verifyPasskeyAssertion } from "../passkeys/passkeys.service.ts";
import { backupCodesLeft, totpEnabled, useBackupCode, verifyTotp } from "../totp/totp.service.ts";
import { verifyAgainstDummy, verifyPassword } from "../users/passwords.ts";
import { type UserRow, users } from "../users/users.table.ts";
import { randomToken, sha256Hex } from "../../shared/crypto.ts";
import { clearBucket, forgetHits, LOGIN_FAILURES, recordHit, secondsUntilFree } from "../../access/rate-limit.ts";
import { withBucketsQueued } from "../users/attempt-limit.ts";
import { createSession } from "../sessions/sessions.service.ts";
import { mfaTokens } from "../sessions/sessions.table.ts";
import type { AccountMailCtx } from "../notices/account-mail.ts";

type Ctx = Pick<AppContext, "db" | "clock" | "config" | "secrets" | "keys" | "identity"> & AccountMailCtx;
/** Who signs in from where; `device`, the browser's device mark (devices/device-cookie.ts). */
type Client = { ip: string; userAgent: string; device?: string };

const MFA_TOKEN_TTL_MS = 5 * 60_000;

export type LoginResult = { kind: "session"; user: UserRow; token: string } | { kind: "mfa"; mfa_token: string; methods: SecondFactorMethod[] };

export type SecondFactor = { code: string } | { backup_code: string } | { passkey: { challenge_id: string; response: unknown } };

/** The second factors an account has enrolled: a sign-in with any of them asks for one. */
export async function secondFactors(ctx: Ctx, userId: string): Promise<SecondFactorMethod[]> {
  const methods: SecondFactorMethod[] = [];
  if (await totpEnabled(ctx, userId)) methods.push("totp");
  if (await hasPasskeys(ctx, userId)) methods.push("passkey");
  if (methods.includes("totp") && (await backupCodesLeft(ctx, userId)) > 0) methods.push("backup_code");
  return methods;
}

/** What signs an account in while its password sign-in is paused: its own factors only. */
const otherWaysIn = async (ctx: Ctx, user: UserRow | undefined) =>
  user ? { totp: await totpEnabled(ctx, user.id), passkey: await hasPasskeys(ctx, user.id) } : { totp: false, passkey: false };

/** A second factor sent along with the password, in the same request. */
type InlineFactor = { code: string } | { backup_code: string };

const inlineFactor = (input: { code?: string; backup_code?: string }): InlineFactor | null =>
  input.code ? { code: input.code } : input.backup_code ? { backup_code: input.backup_code } : null;

const factorHolds = async (ctx: Ctx, userId: string, factor: InlineFactor) =>
  "code" in factor ? verifyTotp(ctx, userId, factor.code) : useBackupCode(ctx, userId, factor.backup_code);

/**
 * Password sign-in. Unknown user and wrong password get one answer after the same work; failures
 * count per account and per address (10 in 15 minutes). With a second factor enrolled, the answer
 * is a short-lived one-use `mfa_token` instead of a session, unless the factor came along
 * (`code` or `backup_code`). Past the limit password sign-in is paused, but the password together
 * with a second factor still passes: someone else's failures cannot lock the owner out. While
 * paused a wrong password and a wrong factor answer alike.
 */
export async function loginWithPassword(
  ctx: Ctx,
  input: { login: string; password: string; code?: string; backup_code?: string },
  client: Client,
): Promise<LoginResult> {
  const login = input.login.trim().toLowerCase();
  const now = ctx.clock.now();
  const user = await ctx.db
    .select()
    .from(users)
    .where(or(eq(users.username, login), eq(users.email, login)))
    .get();
  // Counted per typed login (kept as a hash: it may be a password typed in the wrong field), per
  // account (username and email share it) and per address.
  const accountBuckets = [`login:account:${sha256Hex(login)}`, ...(user ? [`login:user:${user.id}`] : [])];
  const buckets = [...accountBuckets, `login:ip:${client.ip}`];
  const factor = inlineFactor(input);
  // Checked, and counted before the slow hash check, in one transaction queued on the buckets, so a
  // burst of parallel guesses cannot outrun the limit; taken back when the password turns out right.
  // Paused without a factor, nothing is counted.
  const { waits, pending } = await withBucketsQueued(ctx.db, buckets, async () => {
    const waits: (number | null)[] = [];
    for (const bucket of buckets) waits.push(await secondsUntilFree(ctx.db, bucket, LOGIN_FAILURES, now));
    const pending: number[] = [];
    if (factor !== null || waits.every((w) => w === null)) for (const bucket of buckets) pending.push(await recordHit(ctx.db, bucket, now));
    return { waits, pending };
  });
  const found = waits.filter((w): w is number => w !== null);
  const paused = found.length > 0 ? Math.max(...found) : null;
  // Paused for the account's own failures, it is told what it has. For the address's alone, a
  // conditional: naming each account's factors there would tell anyone, for every username, unguessed.
  const accountPaused = waits.slice(0, accountBuckets.length).some((w) => w !== null);
  const pause = async () => signInPaused(paused as number, accountPaused ? await otherWaysIn(ctx, user) : "if-any");
  if (paused !== null && factor === null) throw await pause();
  const ok = user ? await verifyPassword(input.password, user.passwordHash) : await verifyAgainstDummy(input.password);
  if (!user || !ok) throw paused === null ? wrongCredentials() : await pause();
  await forgetHits(ctx.db, pending);
  if (factor !== null && !(await factorHolds(ctx, user.id, factor))) {
    if (paused !== null) throw await pause();
    throw badInput("code" in factor ? "That code is not right." : "That backup code is not right or was already used.");
  }
  for (const bucket of accountBuckets) await clearBucket(ctx.db, bucket);
  if (user.disabledAt !== null) throw denied("This account is disabled. Ask an administrator.");

  const methods = factor === null ? await secondFactors(ctx, user.id) : [];
  if (methods.length === 0) {
    const amr = factor === null ? ["pwd"] : ["pwd", "otp", "mfa"];
    const { token } = await createSession(ctx, user.id, { amr, acr: factor === null ? "pwd" : "mfa", ...client });
    await audit(ctx, { actorUserId: user.id, action: "user.signed_in", targetUserId: user.id, details: { amr } });
    return { kind: "session", user, token };
  }
  return { kind: "mfa", mfa_token: await issueMfaTicket(ctx, user.id, "pwd"), methods };
}

/** A short-lived one-use ticket for the second step, remembering what the first step proved. */
export async function issueMfaTicket(ctx: Ctx, userId: string, firstFactor: "pwd" | "ext"): Promise<string> {
  const mfaToken = randomToken(32);
  const now = ctx.clock.now();
  await ctx.db
    .insert(mfaTokens)
    .values({ tokenHash: sha256Hex(mfaToken), userId, firstFactor, createdAt: now, expiresAt: now + MFA_TOKEN_TTL_MS })
    .run();
  return mfaToken;
}

async function pendingMfa(ctx: Ctx, mfaToken: string): Promise<UserRow & { firstFactor: "pwd" | "ext" }> {
  const row = await ctx.db
    .select()
    .from(mfaTokens)
    .innerJoin(users, eq(users.id, mfaTokens.userId))
    .where(and(eq(mfaTokens.tokenHash, sha256Hex(mfaToken)), isNull(mfaTokens.consumedAt), gt(mfaTokens.expiresAt, ctx.clock.now()), isNull(users.disabledAt)))
    .get();
  if (!row) throw wrongMfaToken();
  return { ...row.users, firstFactor: row.mfa_tokens.firstFactor };
}

const wrongMfaToken = () => badInput("The sign-in step expired or was already used. Sign in again.");

/** Passkey options for the second step, limited to the user's own passkeys. */
export async function mfaPasskeyOptions(ctx: Ctx, mfaToken: string) {
  return passkeyAuthenticationOptions(ctx, (await pendingMfa(ctx, mfaToken)).id);
}

/**
 * The second step: a TOTP code, a backup code or a passkey. The `mfa_token` is consumed by a
 * conditional update only after the factor checked out, so of concurrent attempts one wins.
 */
export async function completeMfaLogin(ctx: Ctx, mfaToken: string, factor: SecondFactor, client: Client): Promise<{ user: UserRow; token: string }> {
  const { firstFactor, ...user } = await pendingMfa(ctx, mfaToken);
  let amr: string[];
  if ("code" in factor) {
    if (!(await verifyTotp(ctx, user.id, factor.code))) throw badInput("That code is not right.");
    amr = [firstFactor, "otp", "mfa"];
  } else if ("backup_code" in factor) {
    if (!(await useBackupCode(ctx, user.id, factor.backup_code))) throw badInput("That backup code is not right or was already used.");
    amr = [firstFactor, "otp", "mfa"];
  } else {
    await verifyPasskeyAssertion(ctx, factor.passkey as never, user.id);
    amr = [firstFactor, "webauthn", "mfa"];
  }
  const consumed = await ctx.db
    .update(mfaTokens)
    .set({ consumedAt: ctx.clock.now() })
    .where(and(eq(mfaTokens.tokenHash, sha256Hex(mfaToken)), isNull(mfaTokens.consumedAt), gt(mfaTokens.expiresAt, ctx.clock.now())))
    .run();
  if (changedRows(consumed) !== 1) throw wrongMfaToken();
  const { token } = await createSession(ctx, user.id, { amr, acr: "mfa", ...client });
  await audit(ctx, { actorUserId: user.id, action: "user.signed_in", targetUserId: user.id, details: { amr } });
  return { user, token };
}

/**
 * Passwordless sign-in with a discoverable passkey. A passkey that verified its user (PIN or
 * biometrics) is two factors in one: `amr` webauthn + mfa, `acr` mfa.
 */
export async function loginWithPasskey(ctx: Ctx, input: { challenge_id: string; response: unknown }, client: Client) {
  const { userId, userVerified } = await verifyPasskeyAssertion(ctx, input as never, null);
  const user = await ctx.db.select().from(users).where(eq(users.id, userId)).get();
  if (!user) throw wrongCredentials();
  if (user.disabledAt !== null) throw denied("This account is disabled. Ask an administrator.");
  const amr = userVerified ? ["webauthn", "mfa"] : ["webauthn"];
  const { token } = await createSession(ctx, user.id, { amr, acr: userVerified ? "mfa" : "pwd", ...client });
  await audit(ctx, { actorUserId: user.id, action: "user.signed_in", targetUserId: user.id, details: { amr } });
  return { user, token };
}
