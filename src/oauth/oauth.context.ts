import { sql } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { preparedOnFirstUse } from "../db/prepared.ts";
import { assertionJtis } from "./clients/client-assertion.table.ts";
import { createClientsRepo, type ClientsRepo } from "./clients/clients.service.ts";
import type { FetchedKeys } from "./clients/client-keys.ts";
import { type CodeStatements, createCodeStatements } from "./grants/authorization-code.ts";
import { createDpopNonces, type DpopNonces } from "./dpop/dpop-nonce.ts";
import { dpopProofJtis } from "./dpop/dpop-proofs.table.ts";
import { DEFAULT_GRANT_TYPES, GRANT_TYPES } from "./grants/index.ts";
import { createTokenIds, type TokenIds } from "./tokens/token-key.ts";
import { createTokenStatements, type TokenStatements } from "./tokens/tokens.service.ts";

/** What the OAuth side keeps for one app: the grant types it serves, its statements (prepared once), fetched client keys. */
export type OAuthRuntime = {
  /**
   * The grant types the token endpoint serves (grants/index.ts): what client metadata may name,
   * read at run time so that clients need not import the grants.
   */
  grantTypes: readonly string[];
  /** Those a client registered without `grant_types` gets. */
  defaultGrantTypes: readonly string[];
  clients: ClientsRepo;
  tokens: TokenStatements;
  /** The sealing of row ids into token values (tokens/token-key.ts), under a key of the instance. */
  tokenIds: TokenIds;
  codes: CodeStatements;
  clientKeys: FetchedKeys;
  /** RFC 9449 section 8 nonces, when CAIRN_DPOP_NONCE requires them. */
  dpopNonces: DpopNonces;
  /** One-use ids claimed by a conditional insert: a DPoP proof's and a client assertion's `jti`. */
  jtiClaims: { readonly dpop: JtiClaim; readonly assertion: JtiClaim };
};

/** Of concurrent claims of one key, exactly one inserts a row (`changes` 1); the others change nothing. */
const jtiClaim = (db: Db, table: typeof dpopProofJtis | typeof assertionJtis) =>
  db
    .insert(table)
    .values({ key: sql.placeholder("key"), expiresAt: sql.placeholder("expiresAt") })
    .onConflictDoNothing()
    .prepare();
type JtiClaim = ReturnType<typeof jtiClaim>;

declare module "../context/context.ts" {
  interface AppContext {
    oauth: OAuthRuntime;
  }
}

export function createOAuthRuntime(db: Db, keys: { dpopNonce: Buffer; tokenIds: Buffer }): OAuthRuntime {
  return {
    grantTypes: GRANT_TYPES,
    defaultGrantTypes: DEFAULT_GRANT_TYPES,
    clients: createClientsRepo(db),
    tokens: createTokenStatements(db),
    tokenIds: createTokenIds(keys.tokenIds),
    codes: createCodeStatements(db),
    clientKeys: new Map(),
    dpopNonces: createDpopNonces(keys.dpopNonce),
    jtiClaims: preparedOnFirstUse({ dpop: () => jtiClaim(db, dpopProofJtis), assertion: () => jtiClaim(db, assertionJtis) }),
  };
}
