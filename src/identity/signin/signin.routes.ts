import type { Server } from "bun";
import { Elysia } from "elysia";
import type { AppContext } from "../../context/context.ts";
import { badInput } from "../users/identity.errors.ts";
import { notSignedIn, tooManyAttempts } from "../../access/access.errors.ts";
import { webauthnChallenges } from "../passkeys/passkeys.table.ts";
import { passkeyAuthenticationOptions } from "../passkeys/passkeys.service.ts";
import { registerUser } from "./register.service.ts";
import type { UserRow } from "../users/users.table.ts";
import { userView } from "../users/users.view.ts";
import { LoginBody, MfaBody, MfaPasskeyOptionsBody, PasskeyProof, RegisterBody, RegistrationQuery } from "./signin.schemas.ts";
import { authPlugin, sessionOf } from "../../access/access.plugin.ts";
import { resolvePrincipal } from "../../access/access.context.ts";
import { clientIp } from "../../access/client-info.ts";
import { deviceCookie, signingInBrowser } from "../devices/device-cookie.ts";
import { startGuard } from "../../access/start-guard.ts";
import { clearedSessionCookie, sessionCookie, signOutCookies } from "../sessions/session-cookie.ts";
import { assertOrigin } from "../../access/csrf.ts";
import { cookieName, readCookie, SESSION_COOKIE } from "../../access/cookies.ts";
import { completeMfaLogin, loginWithPasskey, loginWithPassword, mfaPasskeyOptions, type SecondFactor } from "./login.service.ts";
import { createSession, revokeSession } from "../sessions/sessions.service.ts";
import { errorStyle } from "../../shared/error-style.ts";
import { Ok, PasskeyChallenge } from "../../contract/api/common.ts";
import { CurrentSession, LoginAnswer, SignedIn } from "../../contract/api/signin.ts";
import { RegistrationInfo } from "../../contract/api/sign-up.ts";
import { registrationInfo } from "../invites/invites.service.ts";

/** Passwordless sign-ins one address may start per minute. */
const PASSKEY_OPTIONS_PER_MINUTE = 30;

/** The sign-in API of ARCHITECTURE section 4 (`/api/auth`). */
export function signinRoutes(ctx: AppContext) {
  // The browser's device mark goes back with every sign-in (devices/device-cookie.ts).
  const signedIn = (set: { headers: Record<string, unknown> }, user: UserRow, token: string, device: string) => {
    set.headers["set-cookie"] = [sessionCookie(ctx.config, token), deviceCookie(ctx.config, device)];
    set.headers["cache-control"] = "no-store";
    return { user: userView(user), session_token: token };
  };
  // Who signs in from where: computed only on these routes.
  const client = (request: Request, server: Server<unknown> | null) => signingInBrowser(ctx.config, request, server);

  // Passkey options are a pending challenge row that anyone may ask for: gated per address and in all.
  const mayStartPasskey = startGuard(ctx, { perMinute: PASSKEY_OPTIONS_PER_MINUTE, table: webauthnChallenges, expiresAt: webauthnChallenges.expiresAt });

  return new Elysia({ name: "signin-routes", detail: errorStyle("rfc6749") })
    .use(authPlugin(ctx))
    .onBeforeHandle(({ request }) => assertOrigin(ctx.config, request, "not-foreign"))
    .post(
      "/api/auth/register",
      async ({ body, request, server, set, headers }) => {
        const user = await registerUser(ctx, body, headers["x-setup-token"] ?? null);
        const who = client(request, server);
        const { token } = await createSession(ctx, user.id, { amr: ["pwd"], acr: "pwd", ...who });
        set.status = 201;
        return signedIn(set, user, token, who.device);
      },
      { parse: "json", body: RegisterBody, response: { 201: SignedIn } },
    )
    .get("/api/auth/registration", ({ query }) => registrationInfo(ctx, query.invite), { query: RegistrationQuery, response: RegistrationInfo })
    .post(
      "/api/auth/login",
      async ({ body, request, server, set }) => {
        const who = client(request, server);
        const result = await ctx.metrics.countLogin("password", loginWithPassword(ctx, body, who), (r) => (r.kind === "mfa" ? "mfa_required" : "success"));
        if (result.kind === "mfa") return { mfa_required: true, mfa_token: result.mfa_token, methods: result.methods };
        return signedIn(set, result.user, result.token, who.device);
      },
      { parse: "json", body: LoginBody, response: LoginAnswer },
    )
    .post("/api/auth/login/mfa/passkey-options", ({ body }) => mfaPasskeyOptions(ctx, body.mfa_token), {
      parse: "json",
      body: MfaPasskeyOptionsBody,
      response: PasskeyChallenge,
    })
    .post(
      "/api/auth/login/mfa",
      async ({ body, request, server, set }) => {
        const given = [body.code, body.backup_code, body.passkey].filter((f) => f !== undefined);
        if (given.length !== 1) throw badInput("Send exactly one of code, backup_code or passkey.");
        const factor: SecondFactor =
          body.code !== undefined
            ? { code: body.code }
            : body.backup_code !== undefined
              ? { backup_code: body.backup_code }
              : { passkey: body.passkey as never };
        const method = "code" in factor ? "totp" : "backup_code" in factor ? "backup_code" : "passkey";
        const who = client(request, server);
        const { user, token } = await ctx.metrics.countLogin(method, completeMfaLogin(ctx, body.mfa_token, factor, who));
        return signedIn(set, user, token, who.device);
      },
      { parse: "json", body: MfaBody, response: SignedIn },
    )
    .post(
      "/api/auth/passkey/options",
      async ({ request, server }) => {
        const wait = await mayStartPasskey(clientIp(request, server, ctx.config.trustProxy));
        if (wait !== null) throw tooManyAttempts(wait);
        return passkeyAuthenticationOptions(ctx, null);
      },
      { response: PasskeyChallenge },
    )
    .post(
      "/api/auth/passkey/verify",
      async ({ body, request, server, set }) => {
        const who = client(request, server);
        const { user, token } = await ctx.metrics.countLogin("passkey", loginWithPasskey(ctx, body, who));
        return signedIn(set, user, token, who.device);
      },
      { parse: "json", body: PasskeyProof, response: SignedIn },
    )
    .get(
      "/api/auth/session",
      async ({ request, set }) => {
        // ARCHITECTURE section 4: the session, or 401 (a token is not a session).
        const principal = await resolvePrincipal(ctx, request);
        if (principal?.kind !== "session") {
          const bearer = request.headers.has("authorization");
          const cookie = readCookie(request, cookieName(ctx.config, SESSION_COOKIE)) !== null;
          // A cookie whose session ended goes: the next page's shell then says signed out (src/spa/shell-hints.ts).
          if (cookie && !bearer) set.headers["set-cookie"] = clearedSessionCookie(ctx.config);
          throw notSignedIn("No signed-in session.", ctx.config.issuer, bearer || cookie);
        }
        const { user, session } = principal;
        // As the auth macro does: a session that slid gets its cookie's Max-Age renewed.
        if (principal.viaCookie && principal.slid) set.headers["set-cookie"] = sessionCookie(ctx.config, principal.token);
        set.headers["cache-control"] = "no-store";
        return { user: userView(user), session: { sid: session.id, auth_time: session.authTime, amr: session.amr, acr: session.acr } };
      },
      { response: CurrentSession },
    )
    .post(
      "/api/auth/logout",
      async ({ principal, set }) => {
        const { user, session } = sessionOf(principal);
        await revokeSession(ctx, user.id, session.id);
        set.headers["set-cookie"] = signOutCookies(ctx.config);
        return { ok: true };
      },
      { auth: { session: true }, response: Ok },
    );
}
