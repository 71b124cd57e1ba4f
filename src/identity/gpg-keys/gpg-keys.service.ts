import { and, asc, eq } from "drizzle-orm";
import type { AppContext } from "../../context/context.ts";
import { randomToken } from "../../shared/crypto.ts";
import { audit } from "../audit/audit.service.ts";
import { badInput, conflict, missing } from "../users/identity.errors.ts";
import type { UserRow } from "../users/users.table.ts";
import { gpgKeys } from "./gpg-keys.table.ts";

type Ctx = Pick<AppContext, "db" | "clock">;
type GpgKeyRow = typeof gpgKeys.$inferSelect;

/** OpenPGP.js is large and only key uploads need it: loaded on the first one. */
const openpgp = () => import("openpgp");

const MAX_ARMORED = 64 * 1024;
const MAX_KEYS = 20;

/**
 * The key as the account page and the API show it. A user id is `verified` when its email is the
 * account's own verified email (a key can name any address; only that one is vouched for).
 */
export function gpgKeyView(row: GpgKeyRow, user: Pick<UserRow, "email" | "emailVerified">) {
  return {
    id: row.id,
    fingerprint: row.fingerprint,
    key_id: row.keyId,
    algorithm: row.algorithm,
    expires_at: row.expiresAt,
    user_ids: row.userIds.map((u) => ({ ...u, verified: user.emailVerified && u.email !== "" && u.email.toLowerCase() === user.email.toLowerCase() })),
    created_at: row.createdAt,
  };
}

export async function listGpgKeys(ctx: Pick<Ctx, "db">, userId: string): Promise<GpgKeyRow[]> {
  return ctx.db.select().from(gpgKeys).where(eq(gpgKeys.userId, userId)).orderBy(asc(gpgKeys.createdAt)).all();
}

/**
 * Parses an armored public key with OpenPGP.js: fingerprint, key id, user ids, algorithm and
 * expiry. A private key is refused (it must never be uploaded), and so is anything that is not
 * one public key.
 */
export async function addGpgKey(ctx: Ctx, user: UserRow, armored: string): Promise<GpgKeyRow> {
  const text = armored.trim();
  if (text.length > MAX_ARMORED) throw badInput("That key is too large (at most 64 KB armored).");
  if (/-----BEGIN PGP PRIVATE KEY BLOCK-----/.test(text))
    throw badInput("That is a private key. Upload only your public key (gpg --armor --export <id>), and keep the private one to yourself.");
  if (!/^-----BEGIN PGP PUBLIC KEY BLOCK-----/.test(text))
    throw badInput("Paste an armored OpenPGP public key: it begins with -----BEGIN PGP PUBLIC KEY BLOCK-----.");
  const { readKey } = await openpgp();
  let key: Awaited<ReturnType<typeof readKey>>;
  try {
    key = await readKey({ armoredKey: text });
  } catch (e) {
    throw badInput(`That is not a readable OpenPGP public key (${(e as Error).message.slice(0, 120)}).`);
  }
  if (key.isPrivate()) throw badInput("That is a private key. Upload only your public key.");
  const fingerprint = key.getFingerprint().toUpperCase();
  if ((await listGpgKeys(ctx, user.id)).some((k) => k.fingerprint === fingerprint)) throw conflict("This key is already on your account.");
  if ((await listGpgKeys(ctx, user.id)).length >= MAX_KEYS) throw badInput(`At most ${MAX_KEYS} keys per account.`);
  const expiry = await key.getExpirationTime();
  const userIds = key.users
    .map((u) => u.userID)
    .filter((u): u is NonNullable<typeof u> => u !== null)
    .map((u) => ({ uid: u.userID, name: u.name, email: u.email }));
  const info = key.getAlgorithmInfo();
  const row: GpgKeyRow = {
    id: randomToken(12),
    userId: user.id,
    fingerprint,
    keyId: key.getKeyID().toHex().toUpperCase(),
    userIds,
    algorithm:
      "curve" in info && info.curve ? `${info.algorithm} (${info.curve})` : "bits" in info && info.bits ? `${info.algorithm} ${info.bits}` : info.algorithm,
    expiresAt: expiry instanceof Date ? expiry.getTime() : null,
    armored: key.armor(),
    createdAt: ctx.clock.now(),
  };
  await ctx.db.insert(gpgKeys).values(row).run();
  await audit(ctx, { actorUserId: user.id, action: "gpg_key.added", targetUserId: user.id, details: { fingerprint } });
  return row;
}

export async function removeGpgKey(ctx: Ctx, userId: string, id: string): Promise<void> {
  const removed = await ctx.db
    .delete(gpgKeys)
    .where(and(eq(gpgKeys.id, id), eq(gpgKeys.userId, userId)))
    .returning({ fingerprint: gpgKeys.fingerprint })
    .all();
  if (removed.length === 0) throw missing("GPG key");
  await audit(ctx, { actorUserId: userId, action: "gpg_key.removed", targetUserId: userId, details: { fingerprint: removed[0]?.fingerprint } });
}
