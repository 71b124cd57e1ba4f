import * as authorizationCode from "./authorization-code.ts";
import type { GrantHandler } from "./grant.ts";
import * as refreshToken from "./refresh-token.ts";

/** grant_type -> handler. A grant type joins by adding its module here. */
export const GRANTS: ReadonlyMap<string, GrantHandler> = new Map([
  [authorizationCode.grantType, authorizationCode.handle],
  [refreshToken.grantType, refreshToken.handle],
]);
