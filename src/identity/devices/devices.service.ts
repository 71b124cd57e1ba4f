import { and, desc, eq, notInArray } from "drizzle-orm";
import { changedRows } from "../../db/changes.ts";
import { sha256Hex } from "../../shared/crypto.ts";
import type { AccountMailCtx } from "../notices/account-mail.ts";
import { securityNotice } from "../notices/security-notices.ts";
import { DEVICE_COOKIE_DAYS } from "./device-cookie.ts";
import { knownDevices } from "./known-devices.table.ts";

/** Browsers remembered per account at most: the least recently used is forgotten first. */
const MAX_DEVICES = 50;

/** A browser as known to one account: its mark hashed with the account's id. */
const deviceHash = (userId: string, device: string) => sha256Hex(`${userId}:${device}`);

export type DeviceSeen = "known" | "first" | "new";

/**
 * Notes the browser a sign-in came from, in the sign-in's transaction. A browser the account knows
 * is touched; a new one is remembered and told to the account's address, unless the account knew
 * none yet: its first sign-in (registration, or the first since browsers were remembered) is no news.
 */
export async function noteSignInDevice(ctx: AccountMailCtx, userId: string, signIn: { device: string; userAgent: string; ip: string }): Promise<DeviceSeen> {
  const hash = deviceHash(userId, signIn.device);
  const now = ctx.clock.now();
  const mine = eq(knownDevices.userId, userId);
  const touched = await ctx.db
    .update(knownDevices)
    .set({ lastSeenAt: now })
    .where(and(mine, eq(knownDevices.deviceHash, hash)))
    .run();
  if (changedRows(touched) > 0) return "known";
  const first = (await ctx.db.select({ at: knownDevices.firstSeenAt }).from(knownDevices).where(mine).limit(1).get()) === undefined;
  await ctx.db.insert(knownDevices).values({ userId, deviceHash: hash, firstSeenAt: now, lastSeenAt: now }).run();
  const kept = ctx.db.select({ hash: knownDevices.deviceHash }).from(knownDevices).where(mine).orderBy(desc(knownDevices.lastSeenAt)).limit(MAX_DEVICES);
  await ctx.db
    .delete(knownDevices)
    .where(and(mine, notInArray(knownDevices.deviceHash, kept)))
    .run();
  if (first) return "first";
  await securityNotice(ctx, userId, { type: "new_device" }, { by: "browser", userAgent: signIn.userAgent, ip: signIn.ip });
  return "new";
}

/** A browser unseen for longer than its mark lives cannot come back as known. */
export const DEVICE_FORGOTTEN_AFTER_MS = DEVICE_COOKIE_DAYS * 24 * 3600_000;
