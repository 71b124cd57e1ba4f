import type {
  App,
  AppList,
  AuthMethod,
  CreatedApp,
  DeliveryLog,
  IdTokenAlg,
  MachineTokenList,
  RedirectEntry,
  RotatedSecret,
} from "../../../src/contract/api/apps.ts";
import type { ConsentList, DeviceRequest, Interaction, RedirectTo } from "../../../src/contract/api/authorization.ts";
import type { Ok } from "../../../src/contract/api/common.ts";
import { request } from "./http.ts";

// The contract's lists, so the pages offer exactly what the server accepts.
export { DEFAULT_CLIENT_SCOPES, isAdminScope, KNOWN_SCOPES, OIDC_FIELDS } from "../../../src/contract/scopes.ts";
export type { App, AuthMethod, Delivery, IdTokenAlg, MachineToken, MatchType, RedirectEntry } from "../../../src/contract/api/apps.ts";
export type { Consent, DeviceRequest, Interaction } from "../../../src/contract/api/authorization.ts";

/** What the registration form sends; on update every field is optional and the rest is kept. */
export type AppInput = {
  name: string;
  description: string;
  public: boolean;
  token_endpoint_auth_method: AuthMethod;
  id_token_signed_response_alg: IdTokenAlg;
  redirect_uris: RedirectEntry[];
  scopes: string[];
  oidc_fields: string[];
  dpop_bound_access_tokens: boolean;
  require_pushed_authorization_requests: boolean;
  grant_types: string[];
  post_logout_redirect_uris: string[];
  backchannel_logout_uri: string | null;
  client_credentials_scopes: string[];
};

export type Decision = { decision: "approve" | "deny"; team_id?: string; confirmation?: string };

/** Spec 1 section 2.3 rule 9: the exact phrase an admin types to grant site scopes. */
export const SITE_PHRASE = "grant site access";

const app = (clientId: string) => `/api/oauth/me/clients/${encodeURIComponent(clientId)}`;
const get = async <T>(path: string) => (await request<T>("GET", path)).data;
const send = async <T>(method: string, path: string, body?: unknown) => (await request<T>(method, path, body)).data;

/** Client of "My apps" (`/api/oauth/me/clients`) and the admin's verified mark. */
export const appsApi = {
  list: async () => (await get<AppList>("/api/oauth/me/clients")).clients,
  /** A confidential app's secret comes back this once. */
  create: (input: AppInput) => send<CreatedApp>("POST", "/api/oauth/me/clients", input),
  get: (clientId: string) => get<App>(app(clientId)),
  update: (clientId: string, patch: Partial<AppInput>) => send<App>("PATCH", app(clientId), patch),
  remove: (clientId: string) => send<Ok>("DELETE", app(clientId)),
  /** How back-channel logout tokens reached the app (newest first). */
  deliveries: async (clientId: string) => (await get<DeliveryLog>(`${app(clientId)}/backchannel-deliveries`)).deliveries,
  /** The tokens the app holds for itself (client credentials), without their values. */
  machineTokens: async (clientId: string) => (await get<MachineTokenList>(`${app(clientId)}/machine-tokens`)).tokens,
  rotateSecret: async (clientId: string) => (await send<RotatedSecret>("POST", `${app(clientId)}/secret`)).client_secret,
  setVerified: (clientId: string, is_verified: boolean) => send<App>("PATCH", `/api/oauth/admin/clients/${encodeURIComponent(clientId)}`, { is_verified }),
};

/** Client of "Authorized apps" (`/api/oauth/me/consents`). */
export const consentsApi = {
  list: async () => (await get<ConsentList>("/api/oauth/me/consents")).consents,
  /** The app's tokens for this user stop working at once. */
  revoke: (clientId: string) => send<Ok>("DELETE", `/api/oauth/me/consents/${encodeURIComponent(clientId)}`),
};

/** Client of the consent step of the authorize endpoint (`/api/oauth/interaction/:id`). */
export const interactionApi = {
  get: (id: string) => get<Interaction>(`/api/oauth/interaction/${encodeURIComponent(id)}`),
  /** The URL to send the browser to: the app's own redirect URI with a code or an error. */
  decide: async (id: string, decision: Decision) => (await send<RedirectTo>("POST", `/api/oauth/interaction/${encodeURIComponent(id)}`, decision)).redirect_to,
};

/** Client of the device flow's lookup and decision (ARCHITECTURE section 4). */
export const deviceApi = {
  lookup: (userCode: string) => get<DeviceRequest>(`/api/oauth/device/lookup?user_code=${encodeURIComponent(userCode)}`),
  decide: (userCode: string, decision: "approve" | "deny") => send<Ok>("POST", "/api/oauth/device/decision", { user_code: userCode, decision }),
};

/** Client of RP-initiated logout's confirmation (`POST /api/oauth/end_session`). */
export const endSessionApi = {
  /** Signs this browser out (if it was signed in); answers where to go next. */
  confirm: async (params: { client_id?: string; post_logout_redirect_uri?: string; state?: string }) =>
    (await send<RedirectTo>("POST", "/api/oauth/end_session", params)).redirect_to,
};
