import type { AppContext } from "../../context/context.ts";
import { withTx } from "../../db/tx.ts";
import { putUserSettings, readUserSettings } from "../settings/user-settings.service.ts";
import { NOTICE_SETTINGS, type NoticeKind } from "./notice-kinds.ts";
import { readUnsubscribeToken } from "./unsubscribe-token.ts";

type Ctx = Pick<AppContext, "db" | "clock" | "secrets" | "workspace">;

/** The kind of notice an unsubscribe token stops, or null when the token is not one of ours (GET: nothing changes). */
export const unsubscribeKind = (ctx: Ctx, token: string): NoticeKind | null => readUnsubscribeToken(ctx, token)?.kind ?? null;

/**
 * RFC 8058 one-click: turns the token's kind of notice off for its person, without a sign-in.
 * Doing it again is the same success; a person with nothing saved (or forgotten) has nothing on.
 */
export async function unsubscribe(ctx: Ctx, token: string): Promise<NoticeKind | null> {
  const named = readUnsubscribeToken(ctx, token);
  if (!named) return null;
  const key = NOTICE_SETTINGS[named.kind];
  await withTx(ctx.db, async () => {
    if ((await readUserSettings(ctx, named.userId))[key] === true) await putUserSettings(ctx, named.userId, { [key]: false });
  });
  return named.kind;
}
