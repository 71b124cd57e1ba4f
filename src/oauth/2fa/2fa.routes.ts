import { Elysia, t } from "elysia";
import { authPlugin, sessionOf } from "../../access/access.plugin.ts";
import { clientIp } from "../../access/client-info.ts";
import type { AppContext } from "../../context/context.ts";
import { passkeyAuthenticationOptions } from "../../identity/passkeys/passkeys.service.ts";
import { badInput } from "../../identity/users/identity.errors.ts";
import { tooManyChallenges } from "./2fa.errors.ts";
import { authenticateClient } from "../clients/authenticate-client.ts";
import { ownedClient } from "../clients/clients.service.ts";
import { NO_STORE } from "../endpoints/cors.ts";
import { parseForm } from "../endpoints/form.ts";
import { invalidRequest, unsupportedMediaType } from "../protocol/oauth.errors.ts";
import { createChallenge, describeChallenge, openChallenge, recentChallenges } from "./challenges.service.ts";
import { confirmChallenge } from "./confirm.service.ts";
import { endSudoWindow, listSudoWindows } from "./sudo.service.ts";
import { verifyConfirmation } from "./verify.service.ts";
import { errorStyle } from "../../shared/error-style.ts";
import { PasskeyChallenge } from "../../contract/api/common.ts";
import {
  AppChallengeList,
  ChallengeInfo,
  ConfirmAnswer,
  CreatedChallenge,
  EndedSudo,
  SudoWindowList,
  VerifiedConfirmation,
} from "../../contract/api/two-factor.ts";

/** Spec 1 section 8: 60 challenges per minute per client. */
const CHALLENGES_PER_MINUTE = 60;
/** The client authentication fields a JSON challenge request may carry in its body. */
const CREDENTIAL_FIELDS = ["client_id", "client_secret", "client_assertion", "client_assertion_type"] as const;

/** A JSON object body, or invalid_request. */
function jsonObject(request: Request, body: unknown): Record<string, unknown> {
  if (!(request.headers.get("content-type") ?? "").toLowerCase().startsWith("application/json"))
    throw unsupportedMediaType("the body must be application/json");
  let parsed: unknown;
  try {
    parsed = JSON.parse(typeof body === "string" ? body : "");
  } catch {
    throw invalidRequest("the body is not valid JSON");
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) throw invalidRequest("the body must be a JSON object");
  return parsed as Record<string, unknown>;
}

/** The JSON body's client credentials as the form fields client authentication reads. */
function credentialsOf(body: Record<string, unknown>): URLSearchParams {
  const form = new URLSearchParams();
  for (const field of CREDENTIAL_FIELDS) {
    const value = body[field];
    if (value === undefined) continue;
    if (typeof value !== "string") throw invalidRequest(`${field} must be a string`);
    form.set(field, value);
  }
  return form;
}

const ConfirmBody = t.Object({
  challenge_id: t.String({ maxLength: 100 }),
  state: t.Optional(t.String({ maxLength: 2048 })),
  // Literal unions, not t.UnionEnum: Elysia gives a UnionEnum its first value as a default, which
  // would fill in a missing decision as "approve" and a missing method as "totp".
  decision: t.Union([t.Literal("approve"), t.Literal("reject")]),
  confirmed: t.Optional(t.Boolean()),
  method: t.Optional(t.Union([t.Literal("totp"), t.Literal("passkey"), t.Literal("backup"), t.Literal("sudo")])),
  code: t.Optional(t.String({ maxLength: 32 })),
  passkey: t.Optional(t.Object({ challenge_id: t.String({ maxLength: 100 }), response: t.Any() })),
  remember_sudo: t.Optional(t.Boolean()),
  captcha_token: t.Optional(t.String({ maxLength: 8192 })),
  pow_challenge: t.Optional(t.String({ maxLength: 300 })),
  pow_nonce: t.Optional(t.String({ maxLength: 32 })),
});

/** The 2FA re-confirmation API (spec 1 sections 3.3, 3.4 and 4.4; ARCHITECTURE section 4). */
export function twoFaRoutes(ctx: AppContext) {
  const creations = ctx.access.windows("2fa-challenges", { max: CHALLENGES_PER_MINUTE, windowMs: 60_000 });
  return (
    new Elysia({ name: "2fa-routes", detail: errorStyle("rfc6749") })
      .use(authPlugin(ctx))
      .post(
        "/api/oauth/2fa/challenges",
        async ({ request, body, set }) => {
          Object.assign(set.headers, NO_STORE);
          const json = jsonObject(request, body);
          const client = await authenticateClient(ctx, request.headers.get("authorization"), credentialsOf(json));
          const wait = await creations.hit(client.clientId, ctx.clock.now());
          if (wait !== null) throw tooManyChallenges(CHALLENGES_PER_MINUTE, wait);
          set.status = 201;
          return createChallenge(ctx, client, json);
        },
        { parse: "text", response: { 201: CreatedChallenge } },
      )
      .get(
        "/api/oauth/2fa/info",
        ({ principal, query }) => describeChallenge(ctx, query.challenge_id, query.state, principal.user.id, sessionOf(principal).session.id),
        {
          auth: { session: true },
          query: t.Object({ challenge_id: t.String({ maxLength: 100 }), state: t.Optional(t.String({ maxLength: 2048 })) }),
          response: ChallengeInfo,
        },
      )
      // Passkey options for the confirmation: the signed-in user's own passkeys, for an open challenge.
      .post(
        "/api/oauth/2fa/passkey-options",
        async ({ principal, body }) => {
          await openChallenge(ctx, body.challenge_id);
          return passkeyAuthenticationOptions(ctx, principal.user.id, "step-up");
        },
        { auth: { session: true }, parse: "json", body: t.Object({ challenge_id: t.String({ maxLength: 100 }) }), response: PasskeyChallenge },
      )
      .post(
        "/api/oauth/2fa/authorize",
        ({ principal, body, request, server }) => confirmChallenge(ctx, sessionOf(principal), body, clientIp(request, server, ctx.config.trustProxy)),
        { auth: { session: true }, parse: "json", body: ConfirmBody, response: ConfirmAnswer },
      )
      .post(
        "/api/oauth/2fa/verify",
        async ({ request, body, set }) => {
          Object.assign(set.headers, NO_STORE);
          const form = parseForm(request, body);
          return verifyConfirmation(ctx, await authenticateClient(ctx, request.headers.get("authorization"), form), form);
        },
        { parse: "text", response: VerifiedConfirmation },
      )
      // Spec 1 section 5 rule 6: the user's session JWT as Bearer (the account page uses its cookie).
      // Without session_id it is this session's window; the account page may name another of the user's.
      .post(
        "/api/oauth/2fa/sudo/revoke",
        async ({ principal, body }) => {
          const { user, session } = sessionOf(principal);
          if (body.client_id === "") throw badInput("client_id is required.");
          const ended = await endSudoWindow(ctx, { userId: user.id, sessionId: body.session_id ?? session.id, clientId: body.client_id });
          return { ok: true, ended };
        },
        {
          auth: { session: true },
          parse: "json",
          body: t.Object({ client_id: t.String({ maxLength: 200 }), session_id: t.Optional(t.String({ maxLength: 100 })) }),
          response: EndedSudo,
        },
      )
      .get(
        "/api/oauth/me/sudo",
        async ({ principal }) => {
          const { user, session } = sessionOf(principal);
          return { windows: await listSudoWindows(ctx, user.id, session.id) };
        },
        { auth: { session: true }, response: SudoWindowList },
      )
      // The app's page shows its owner the recent confirmations it asked for.
      .get(
        "/api/oauth/me/clients/:clientId/2fa-challenges",
        async ({ principal, params }) => ({ challenges: await recentChallenges(ctx, (await ownedClient(ctx, principal.user.id, params.clientId)).clientId) }),
        { auth: { scope: "apps:read" }, response: AppChallengeList },
      )
  );
}
