import type { Config } from "../../config/config.ts";
import { ID_TOKEN_ALGS } from "../../keys/jwt-signer.ts";
import { ASSERTION_ALGS } from "../clients/client-assertion.ts";
import { AUTH_METHODS } from "../../contract/api/apps.ts";
import { GRANT_TYPES } from "../grants/index.ts";
import { DPOP_ALGS } from "../protocol/dpop.ts";
import { OAUTH_PATHS } from "../protocol/paths.ts";
import { KNOWN_SCOPES } from "../../contract/scopes.ts";
import { CLAIMS_SUPPORTED } from "../claims/claims.ts";

const CLIENT_AUTH_METHODS: readonly string[] = AUTH_METHODS;

/**
 * OpenID Connect Discovery 1.0 / RFC 8414 metadata. Every value is true of this server: what
 * it does not do (request objects) is advertised as false or left out.
 */
export function serverMetadata(config: Pick<Config, "issuer" | "requirePar">) {
  const at = (path: string) => `${config.issuer}${path}`;
  return {
    issuer: config.issuer,
    authorization_endpoint: at(OAUTH_PATHS.authorization),
    token_endpoint: at(OAUTH_PATHS.token),
    userinfo_endpoint: at(OAUTH_PATHS.userinfo),
    jwks_uri: at(OAUTH_PATHS.jwks),
    introspection_endpoint: at(OAUTH_PATHS.introspection),
    revocation_endpoint: at(OAUTH_PATHS.revocation),
    registration_endpoint: at(OAUTH_PATHS.registration),
    pushed_authorization_request_endpoint: at(OAUTH_PATHS.par),
    device_authorization_endpoint: at(OAUTH_PATHS.deviceAuthorization),
    end_session_endpoint: at(OAUTH_PATHS.endSession),
    require_pushed_authorization_requests: config.requirePar,
    scopes_supported: [...KNOWN_SCOPES],
    response_types_supported: ["code"],
    response_modes_supported: ["query"],
    grant_types_supported: GRANT_TYPES,
    subject_types_supported: ["public"],
    id_token_signing_alg_values_supported: [...ID_TOKEN_ALGS],
    token_endpoint_auth_methods_supported: CLIENT_AUTH_METHODS,
    token_endpoint_auth_signing_alg_values_supported: ASSERTION_ALGS,
    introspection_endpoint_auth_methods_supported: CLIENT_AUTH_METHODS.filter((m) => m !== "none"),
    introspection_endpoint_auth_signing_alg_values_supported: ASSERTION_ALGS,
    revocation_endpoint_auth_methods_supported: CLIENT_AUTH_METHODS,
    revocation_endpoint_auth_signing_alg_values_supported: ASSERTION_ALGS,
    code_challenge_methods_supported: ["S256"],
    dpop_signing_alg_values_supported: [...DPOP_ALGS],
    prompt_values_supported: ["none", "login", "consent"],
    acr_values_supported: ["pwd", "mfa"],
    claims_supported: [...CLAIMS_SUPPORTED],
    claims_parameter_supported: false,
    request_parameter_supported: false,
    request_uri_parameter_supported: false,
    require_request_uri_registration: false,
    authorization_response_iss_parameter_supported: true,
    backchannel_logout_supported: true,
    backchannel_logout_session_supported: true,
  };
}

/** RFC 9728: this server is also the resource server of the /api/oauth/me API. */
export function protectedResourceMetadata(config: Pick<Config, "issuer">) {
  return {
    resource: config.issuer,
    authorization_servers: [config.issuer],
    // Userinfo is one of its resources and takes `openid`; offline_access is for the token endpoint only.
    scopes_supported: [...KNOWN_SCOPES].filter((s) => s !== "offline_access"),
    bearer_methods_supported: ["header"],
    // RFC 9449 section 5.1 / RFC 9728 section 2: DPoP-bound tokens are accepted, not required.
    dpop_signing_alg_values_supported: [...DPOP_ALGS],
    dpop_bound_access_tokens_required: false,
    resource_name: "Cairn",
  };
}
