import { type Static, Type } from "@sinclair/typebox";
import { Registration } from "./admin.ts";
import { orNull } from "./common.ts";

/**
 * `GET /api/auth/registration?invite=`: what the home and register pages need before anyone has an
 * account. `invite` is the invitation the code names while it can still be used (null otherwise,
 * or when no code was given); its `email`, when set, is the only address it admits. `mail`: whether
 * this site sends email (verification links, "Forgot password?"), so a page can say what is missing.
 */
export const RegistrationInfo = Type.Object({
  registration: Registration,
  invite: orNull(Type.Object({ email: orNull(Type.String()), expires_at: Type.Number() })),
  mail: Type.Boolean(),
});
export type RegistrationInfo = Static<typeof RegistrationInfo>;
