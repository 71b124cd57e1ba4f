import { authorizationCode } from "./authorization-code.ts";
import { clientCredentials } from "./client-credentials.ts";
import { deviceCode } from "./device-code.ts";
import type { Grant } from "./grant.ts";
import { refreshToken } from "./refresh-token.ts";
import { tokenExchange } from "./token-exchange.ts";

/**
 * Every grant type the token endpoint serves. A grant type joins by one new module and one line
 * here: the endpoint's dispatch, discovery's `grant_types_supported` and what client metadata
 * may name (set at boot as `ctx.grantTypes`) all follow this list.
 */
const GRANTS: readonly Grant[] = [authorizationCode, refreshToken, deviceCode, tokenExchange, clientCredentials];

export const GRANT_TYPES: readonly string[] = GRANTS.map((g) => g.grantType);
/** What a client registered without `grant_types` may use. */
export const DEFAULT_GRANT_TYPES: readonly string[] = GRANTS.filter((g) => g.byDefault).map((g) => g.grantType);

export const grantFor = (grantType: string): Grant | undefined => GRANTS.find((g) => g.grantType === grantType);
