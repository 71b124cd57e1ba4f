import type { AppConfig } from "../../contract/api/init.ts";
import { invalidRequest } from "../../shared/errors.ts";

export type AppConfigPatch = Partial<AppConfig>;

/** As stored: the client secret sealed with the instance key, never in clear. */
export type StoredAppConfig = Omit<AppConfig, "idp_client_secret"> & { idp_client_secret_sealed: string };

export const EMPTY_APP_CONFIG: StoredAppConfig = {
  idp_base_url: "",
  idp_client_id: "",
  idp_client_secret_sealed: "",
  idp_redirect_uri: "",
  use_pkce: true,
  allowed_team_id: "",
  owner_team_id: "",
};

/** The workspace's default connection: this instance as its own identity provider. */
export function selfHostedDefaults(issuer: string): StoredAppConfig {
  return { ...EMPTY_APP_CONFIG, idp_base_url: issuer, idp_redirect_uri: `${issuer}/api/workspace/callback` };
}

const TEAM_ID = /^[A-Za-z0-9._:-]{1,128}$/;
const CONTROL = /[\u0000-\u001f\u007f]/;

/** Team ids separated by commas, semicolons or whitespace, in order, without repeats. */
export function parseTeamIds(list: string): string[] {
  return [...new Set(list.split(/[\s,;]+/).filter((id) => id !== ""))];
}

function httpUrl(field: string, raw: string, { allowQuery }: { allowQuery: boolean }): string {
  const trimmed = raw.trim();
  if (trimmed === "") return "";
  let url: URL;
  try {
    url = new URL(trimmed);
  } catch {
    throw invalidRequest(`${field} must be an absolute URL`);
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") throw invalidRequest(`${field} must use http or https`);
  if (url.username || url.password) throw invalidRequest(`${field} must not contain credentials`);
  if (trimmed.includes("#")) throw invalidRequest(`${field} must not contain a fragment`);
  if (!allowQuery && url.search) throw invalidRequest(`${field} must not contain a query`);
  return allowQuery ? url.href : url.href.replace(/\/+$/, "");
}

/**
 * Checks each provided field's value and returns it normalized (trimmed, URLs canonical).
 * `lockedTeamId` is CAIRN_ALLOWED_TEAM_ID: the same value may be sent back, another may not.
 */
export function normalizePatch(patch: AppConfigPatch, lockedTeamId: string | null): AppConfigPatch {
  const out: AppConfigPatch = { ...patch };
  if (patch.idp_base_url !== undefined) out.idp_base_url = httpUrl("idp_base_url", patch.idp_base_url, { allowQuery: false });
  if (patch.idp_redirect_uri !== undefined) out.idp_redirect_uri = httpUrl("idp_redirect_uri", patch.idp_redirect_uri, { allowQuery: true });
  if (patch.idp_client_id !== undefined) {
    out.idp_client_id = patch.idp_client_id.trim();
    if (CONTROL.test(out.idp_client_id)) throw invalidRequest("idp_client_id contains control characters");
  }
  if (patch.allowed_team_id !== undefined) {
    out.allowed_team_id = patch.allowed_team_id.trim();
    if (out.allowed_team_id !== "" && !TEAM_ID.test(out.allowed_team_id)) throw invalidRequest("allowed_team_id must be one team id");
    if (lockedTeamId !== null && out.allowed_team_id !== lockedTeamId) throw invalidRequest("allowed_team_id is locked by CAIRN_ALLOWED_TEAM_ID");
  }
  if (patch.owner_team_id !== undefined) {
    out.owner_team_id = patch.owner_team_id.trim();
    if (!parseTeamIds(out.owner_team_id).every((id) => TEAM_ID.test(id)))
      throw invalidRequest("owner_team_id must be team ids separated by commas, semicolons or spaces");
  }
  return out;
}
