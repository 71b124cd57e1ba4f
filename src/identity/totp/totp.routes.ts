import { Elysia } from "elysia";
import { authPlugin } from "../../access/access.plugin.ts";
import type { AppContext } from "../../context/context.ts";
import { badInput } from "../users/identity.errors.ts";
import { CodeBody, ReauthBody } from "./totp.schemas.ts";
import { checkPasswordAgain } from "../users/password-check.ts";
import type { UserRow } from "../users/users.table.ts";
import { backupCodesLeft, beginTotpEnrolment, confirmTotp, disableTotp, regenerateBackupCodes, totpEnabled, verifyTotp } from "./totp.service.ts";
import { errorStyle } from "../../shared/error-style.ts";
import { requestOrigin } from "../notices/notice-origin.ts";
import { Ok } from "../../contract/api/common.ts";
import { BackupCodes, TotpEnrolment, TotpStatus } from "../../contract/api/accounts.ts";

/** Turning factors off or minting new backup codes needs a current code or the password. */
async function assertPresent(ctx: AppContext, user: UserRow, proof: { code?: string; password?: string }) {
  if (proof.code !== undefined) {
    if (await verifyTotp(ctx, user.id, proof.code)) return;
    throw badInput("That code is not right.");
  }
  if (proof.password !== undefined && (await checkPasswordAgain(ctx, user, proof.password))) return;
  throw badInput("Confirm with a current code or your password.");
}

/** TOTP enrolment and backup codes (session only; ARCHITECTURE section 4). */
export function totpRoutes(ctx: AppContext) {
  return new Elysia({ name: "totp-routes", detail: errorStyle("rfc6749") })
    .use(authPlugin(ctx))
    .get(
      "/api/oauth/me/totp",
      async ({ principal }) => ({ enabled: await totpEnabled(ctx, principal.user.id), backup_codes_left: await backupCodesLeft(ctx, principal.user.id) }),
      { auth: { session: true }, response: TotpStatus },
    )
    .post("/api/oauth/me/totp", ({ principal }) => beginTotpEnrolment(ctx, principal.user), { auth: { session: true }, response: TotpEnrolment })
    .post(
      "/api/oauth/me/totp/confirm",
      ({ principal, body, request, server }) => confirmTotp(ctx, principal.user, body.code, requestOrigin(ctx, request, server)),
      {
        auth: { session: true },
        parse: "json",
        body: CodeBody,
        response: BackupCodes,
      },
    )
    .post(
      "/api/oauth/me/totp/backup-codes",
      async ({ principal, body, request, server }) => {
        await assertPresent(ctx, principal.user, body);
        return regenerateBackupCodes(ctx, principal.user.id, requestOrigin(ctx, request, server));
      },
      { auth: { session: true }, parse: "json", body: ReauthBody, response: BackupCodes },
    )
    .delete(
      "/api/oauth/me/totp",
      async ({ principal, body, request, server }) => {
        if (!(await totpEnabled(ctx, principal.user.id))) throw badInput("Two-factor authentication is not on.");
        await assertPresent(ctx, principal.user, body);
        await disableTotp(ctx, principal.user.id, principal.user.id, requestOrigin(ctx, request, server));
        return { ok: true };
      },
      { auth: { session: true }, parse: "json", body: ReauthBody, response: Ok },
    );
}
