import { randomInt } from "node:crypto";
import { and, count, eq, isNull } from "drizzle-orm";
import { TOTP_ATTEMPTS } from "../../access/rate-limit.ts";
import type { AppContext } from "../../context/context.ts";
import { changedRows } from "../../db/changes.ts";
import { withTx } from "../../db/tx.ts";
import { randomToken, sha256Hex } from "../../shared/crypto.ts";
import { audit } from "../audit/audit.service.ts";
import { badInput, conflict, missing } from "../users/identity.errors.ts";
import type { UserRow } from "../users/users.table.ts";
import { countAttempt } from "../users/attempt-limit.ts";
import { backupCodes, totpCredentials } from "./totp.table.ts";
import type { AccountMailCtx } from "../notices/account-mail.ts";
import type { NoticeOrigin } from "../notices/notice-origin.ts";
import { securityNotice } from "../notices/security-notices.ts";

type Ctx = Pick<AppContext, "db" | "clock" | "secrets" | "config">;

/** Loaded on first use, to keep the server's start fast. */
const otp = () => import("otplib");

const SECRET_PURPOSE = "totp.secret";
const BACKUP_CODES = 10;
/**
 * Digits and lowercase letters without the look-alikes 0/o, 1/l/i: a code copied from paper is
 * typed as written. 31^10 ≈ 2^49.5 per code. Codes made before (any base64url letter) still work.
 */
const BACKUP_CODE_ALPHABET = "23456789abcdefghjkmnpqrstuvwxyz";
/** RFC 6238 section 5.2: accept one step of clock drift either way. */
const TOLERANCE_SECONDS = 30;

async function secretOf(ctx: Ctx, userId: string, confirmed: boolean) {
  const row = await ctx.db.select().from(totpCredentials).where(eq(totpCredentials.userId, userId)).get();
  if (!row || (row.confirmedAt !== null) !== confirmed) return null;
  return { ...row, secret: ctx.secrets.open(row.secretSealed, SECRET_PURPOSE) };
}

export async function totpEnabled(ctx: Pick<Ctx, "db">, userId: string): Promise<boolean> {
  const row = await ctx.db.select({ c: totpCredentials.confirmedAt }).from(totpCredentials).where(eq(totpCredentials.userId, userId)).get();
  return row?.c != null;
}

export async function backupCodesLeft(ctx: Pick<Ctx, "db">, userId: string): Promise<number> {
  return (
    (
      await ctx.db
        .select({ n: count() })
        .from(backupCodes)
        .where(and(eq(backupCodes.userId, userId), isNull(backupCodes.usedAt)))
        .get()
    )?.n ?? 0
  );
}

/** Starts (or restarts) enrolment: a new secret, inactive until confirmed with a code. */
export async function beginTotpEnrolment(ctx: Ctx & Pick<AppContext, "siteBranding">, user: UserRow): Promise<{ secret: string; otpauth_uri: string }> {
  const { generateSecret, generateURI } = await otp();
  if (await totpEnabled(ctx, user.id)) throw conflict("Two-factor authentication is already on. Turn it off first to enrol again.");
  const secret = generateSecret();
  const row = { userId: user.id, secretSealed: ctx.secrets.seal(secret, SECRET_PURPOSE), confirmedAt: null, lastTimeStep: null, createdAt: ctx.clock.now() };
  await ctx.db.insert(totpCredentials).values(row).onConflictDoUpdate({ target: totpCredentials.userId, set: row }).run();
  return { secret, otpauth_uri: generateURI({ issuer: (await ctx.siteBranding()).site_name, label: user.username, secret }) };
}

/**
 * Checks a code against a secret: counted against the attempt limit, never the same time step
 * twice (the step is claimed with a conditional update, so a code cannot be replayed even at once).
 */
async function checkCode(ctx: Ctx, userId: string, secret: string, lastTimeStep: number | null, code: string): Promise<boolean> {
  const now = ctx.clock.now();
  await countAttempt(ctx.db, `totp:${userId}`, TOTP_ATTEMPTS, now);
  let result: { valid: boolean; timeStep?: number };
  try {
    result = (await (
      await otp()
    ).verify({
      secret,
      token: code.replace(/\s/g, ""),
      epoch: Math.floor(now / 1000),
      epochTolerance: TOLERANCE_SECONDS,
      ...(lastTimeStep === null ? {} : { afterTimeStep: lastTimeStep }),
    })) as { valid: boolean; timeStep?: number };
  } catch {
    return false; // not six digits
  }
  if (!result.valid || result.timeStep === undefined) return false;
  const step = result.timeStep;
  const claimed = await ctx.db
    .update(totpCredentials)
    .set({ lastTimeStep: step })
    .where(
      and(eq(totpCredentials.userId, userId), lastTimeStep === null ? isNull(totpCredentials.lastTimeStep) : eq(totpCredentials.lastTimeStep, lastTimeStep)),
    )
    .run();
  return changedRows(claimed) === 1;
}

async function newBackupCodes(ctx: Ctx, userId: string): Promise<string[]> {
  const codes = Array.from({ length: BACKUP_CODES }, () => {
    const raw = Array.from({ length: 10 }, () => BACKUP_CODE_ALPHABET[randomInt(BACKUP_CODE_ALPHABET.length)]).join("");
    return `${raw.slice(0, 5)}-${raw.slice(5)}`;
  });
  await ctx.db.delete(backupCodes).where(eq(backupCodes.userId, userId)).run();
  const now = ctx.clock.now();
  await ctx.db
    .insert(backupCodes)
    .values(codes.map((code) => ({ id: randomToken(9), userId, codeHash: hashBackupCode(code), usedAt: null, createdAt: now })))
    .run();
  return codes;
}

const hashBackupCode = (code: string) => sha256Hex(code.trim().toLowerCase().replace(/[\s-]/g, ""));

/** Confirms enrolment with a first code; answers the 10 backup codes, shown this once. The account's address is told. */
export async function confirmTotp(ctx: Ctx & AccountMailCtx, user: UserRow, code: string, origin: NoticeOrigin): Promise<{ backup_codes: string[] }> {
  const pending = await secretOf(ctx, user.id, false);
  if (!pending) throw missing("A pending enrolment");
  if (!(await checkCode(ctx, user.id, pending.secret, pending.lastTimeStep, code)))
    throw badInput("That code is not right. Check the time on your device and try again.");
  return withTx(ctx.db, async () => {
    await ctx.db.update(totpCredentials).set({ confirmedAt: ctx.clock.now() }).where(eq(totpCredentials.userId, user.id)).run();
    await audit(ctx, { actorUserId: user.id, action: "totp.enabled", targetUserId: user.id });
    await securityNotice(ctx, user.id, { type: "totp_enabled" }, origin);
    return { backup_codes: await newBackupCodes(ctx, user.id) };
  });
}

/** True when `code` is a current code of the user's confirmed authenticator (used once). */
export async function verifyTotp(ctx: Ctx, userId: string, code: string): Promise<boolean> {
  const active = await secretOf(ctx, userId, true);
  return active !== null && checkCode(ctx, userId, active.secret, active.lastTimeStep, code);
}

/** Uses up one backup code; true when it was unused. Counted against the same attempt limit. */
export async function useBackupCode(ctx: Ctx, userId: string, code: string): Promise<boolean> {
  const now = ctx.clock.now();
  await countAttempt(ctx.db, `totp:${userId}`, TOTP_ATTEMPTS, now);
  const used = await ctx.db
    .update(backupCodes)
    .set({ usedAt: now })
    .where(and(eq(backupCodes.userId, userId), eq(backupCodes.codeHash, hashBackupCode(code)), isNull(backupCodes.usedAt)))
    .run();
  return changedRows(used) === 1;
}

export async function regenerateBackupCodes(ctx: Ctx & AccountMailCtx, userId: string, origin: NoticeOrigin): Promise<{ backup_codes: string[] }> {
  if (!(await totpEnabled(ctx, userId))) throw missing("An enabled authenticator");
  return withTx(ctx.db, async () => {
    await audit(ctx, { actorUserId: userId, action: "totp.backup_codes_regenerated", targetUserId: userId });
    await securityNotice(ctx, userId, { type: "backup_codes_regenerated" }, origin);
    return { backup_codes: await newBackupCodes(ctx, userId) };
  });
}

export async function disableTotp(ctx: Pick<Ctx, "db" | "clock"> & AccountMailCtx, userId: string, actorUserId: string, origin: NoticeOrigin): Promise<void> {
  await withTx(ctx.db, async () => {
    await ctx.db.delete(totpCredentials).where(eq(totpCredentials.userId, userId)).run();
    await ctx.db.delete(backupCodes).where(eq(backupCodes.userId, userId)).run();
    await audit(ctx, { actorUserId, action: "totp.disabled", targetUserId: userId });
    await securityNotice(ctx, userId, { type: "totp_disabled" }, origin);
  });
}
