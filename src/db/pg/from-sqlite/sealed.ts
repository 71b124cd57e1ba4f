import type { SecretBox } from "../../../shared/crypto.ts";
import { MoveError } from "./source.ts";
import { quote } from "./tables.ts";

/** Sealed values opened per kind. */
const SAMPLE = 100;

/**
 * Where Cairn keeps values sealed with the instance key (SecretBox.seal), and the purpose each was
 * sealed for: the module that seals it says. A new `*_sealed` column belongs here
 * (test/db/pg/migrate-to-postgres.test.ts holds the list to the schema).
 */
export const SEALED_COLUMNS: { table: string; column: string; key: string; purpose: (key: string) => string }[] = [
  // keys/keystore.ts signingKeyPurpose
  { table: "signing_keys", column: "private_jwk_sealed", key: "kid", purpose: (kid) => `signing_key:${kid}` },
  // identity/totp/totp.service.ts
  { table: "totp_credentials", column: "secret_sealed", key: "user_id", purpose: () => "totp.secret" },
  // identity/social/upstream.ts
  { table: "identity_providers", column: "client_secret_sealed", key: "id", purpose: () => "identity-provider-client-secret" },
  // workspace/session/idp-tokens.ts and idp-logout.ts
  { table: "ws_sessions", column: "idp_access_token_sealed", key: "id", purpose: (id) => `ws_idp_access_token:${id}` },
  { table: "ws_sessions", column: "idp_refresh_token_sealed", key: "id", purpose: (id) => `ws_idp_refresh_token:${id}` },
  { table: "ws_sessions", column: "idp_id_token_sealed", key: "id", purpose: (id) => `ws_idp_id_token:${id}` },
  // workspace/storage/share-links.repo.ts
  { table: "share_links", column: "token_sealed", key: "id", purpose: () => "share_links.token" },
  // docs/sources/sources.service.ts
  { table: "docs_sources", column: "token_sealed", key: "id", purpose: () => "docs.source.token" },
];

/** Sealed values inside a settings row's JSON (null field: the value is the sealed string itself). */
export const SEALED_SETTINGS: { key: string; field: string | null; purpose: string }[] = [
  // keys/instance-secret.ts: the check sealed at first start
  { key: "instance_secret_check", field: null, purpose: "instance secret check" },
  // identity/site-config/site-config.ts
  { key: "site_config", field: "captcha_secret_sealed", purpose: "captcha.secret" },
  // settings/init/init.service.ts
  { key: "app_config", field: "idp_client_secret_sealed", purpose: "app_config.idp_client_secret" },
  // docs/settings/docs-settings.ts
  { key: "docs_settings", field: "translate_key_sealed", purpose: "docs.translate.key" },
];

type Sealed = { where: string; sealed: string; purpose: string };

async function sealedInColumns(pg: Bun.SQL): Promise<Sealed[]> {
  const found: Sealed[] = [];
  for (const { table, column, key, purpose } of SEALED_COLUMNS) {
    const rows: { key: string; sealed: string }[] = await pg.unsafe(
      `SELECT ${quote(key)} AS key, ${quote(column)} AS sealed FROM ${quote(table)} WHERE ${quote(column)} <> '' ORDER BY random() LIMIT ${SAMPLE}`,
    );
    found.push(...rows.map((r) => ({ where: `${table}.${column} of ${key}=${r.key}`, sealed: r.sealed, purpose: purpose(r.key) })));
  }
  return found;
}

async function sealedInSettings(pg: Bun.SQL): Promise<Sealed[]> {
  const rows: { key: string; value: string }[] = await pg.unsafe(
    `SELECT "key", "value" FROM "settings" WHERE "key" IN (${SEALED_SETTINGS.map((_, i) => `$${i + 1}`).join(", ")})`,
    [...SEALED_SETTINGS.map((s) => s.key)],
  );
  return rows.flatMap(({ key, value }) => {
    const { field, purpose } = SEALED_SETTINGS.find((s) => s.key === key)!;
    const parsed: unknown = JSON.parse(value);
    const sealed = field === null ? parsed : (parsed as Record<string, unknown> | null)?.[field];
    return typeof sealed === "string" && sealed !== "" ? [{ where: `settings ${key}${field ? `.${field}` : ""}`, sealed, purpose }] : [];
  });
}

/**
 * Reads a sample of every kind of sealed value back from PostgreSQL and opens each with the
 * instance key (AES-GCM: with another key, or a changed byte, it fails its tag). Answers how many
 * opened; throws MoveError naming those that did not.
 */
export async function openSealedValues(pg: Bun.SQL, box: SecretBox): Promise<number> {
  const values = [...(await sealedInSettings(pg)), ...(await sealedInColumns(pg))];
  const failed = values.filter(({ sealed, purpose }) => {
    try {
      box.open(sealed, purpose);
      return false;
    } catch {
      return true;
    }
  });
  if (failed.length > 0) {
    const shown = failed.slice(0, 3).map((f) => f.where);
    throw new MoveError(
      `verification failed: ${failed.length} of ${values.length} sealed values read back from PostgreSQL do not open with the instance key (${shown.join("; ")}${failed.length > 3 ? "; ..." : ""})`,
    );
  }
  return values.length;
}
