import type { AppConfig } from "../../contract/api/init.ts";
import type { AppContext } from "../../context/context.ts";
import { withTx } from "../../db/tx.ts";
import { constantTimeEqual } from "../../shared/crypto.ts";
import { AppError, forbidden, invalidRequest, unauthorized } from "../../shared/errors.ts";
import { alreadyConfigured } from "./init.errors.ts";
import { insertSettingOnce, readSetting, writeSetting } from "../../db/settings.repo.ts";
import { readTeamSettings } from "../team-settings/team-settings.repo.ts";
import { ensureWorkspaceClient } from "./workspace-client.ts";
import { type AppConfigPatch, EMPTY_APP_CONFIG, normalizePatch, parseTeamIds, selfHostedDefaults, type StoredAppConfig } from "./app-config.ts";

type Ctx = Pick<AppContext, "db" | "clock" | "config" | "secrets" | "configAccess">;
/** Writing the config may register the built-in workspace client. */
type WriteCtx = Ctx & Pick<AppContext, "oauth">;

const CONFIGURED = "configured";
const APP_CONFIG = "app_config";
const SECRET_PURPOSE = "app_config.idp_client_secret";
const DEFAULT_SITE_NAME = "Cairn";

export async function isConfigured(ctx: Pick<Ctx, "db">): Promise<boolean> {
  return (await readSetting(ctx.db, CONFIGURED)) !== undefined;
}

async function stored(ctx: Pick<Ctx, "db" | "config">): Promise<StoredAppConfig> {
  const config = { ...EMPTY_APP_CONFIG, ...(await readSetting<StoredAppConfig>(ctx.db, APP_CONFIG)) };
  // CAIRN_ALLOWED_TEAM_ID wins over anything stored, and is shown as the value in force.
  if (ctx.config.allowedTeamId !== null) config.allowed_team_id = ctx.config.allowedTeamId;
  return config;
}

/** The config as every client sees it: the client secret is write-only. */
export async function getAppConfig(ctx: Ctx): Promise<AppConfig> {
  const { idp_client_secret_sealed: _, ...rest } = await stored(ctx);
  return { ...rest, idp_client_secret: "" };
}

/** The client secret in clear, for the workspace's own token requests. */
export async function readIdpClientSecret(ctx: Ctx): Promise<string> {
  const sealed = (await stored(ctx)).idp_client_secret_sealed;
  return sealed === "" ? "" : ctx.secrets.open(sealed, SECRET_PURPOSE);
}

/** Fields that CAIRN_ALLOWED_TEAM_ID locks, for the UI to show as read-only. */
export function lockedFields(ctx: Pick<Ctx, "config">): (keyof AppConfig)[] {
  return ctx.config.allowedTeamId === null ? [] : ["allowed_team_id"];
}

function merge(ctx: Ctx, base: StoredAppConfig, patch: AppConfigPatch): StoredAppConfig {
  const { idp_client_secret, ...fields } = normalizePatch(patch, ctx.config.allowedTeamId);
  const next: StoredAppConfig = { ...base, ...fields };
  // Only a provided secret changes the stored one; an empty string clears it.
  if (idp_client_secret !== undefined) next.idp_client_secret_sealed = idp_client_secret === "" ? "" : ctx.secrets.seal(idp_client_secret, SECRET_PURPOSE);
  return next;
}

/** CAIRN_SETUP_TOKEN, when the operator set one, guards everything setup may do. */
function assertSetupToken(ctx: Pick<Ctx, "config">, given: string | null): void {
  const expected = ctx.config.setupToken;
  if (expected !== null && (given === null || !constantTimeEqual(given, expected))) throw unauthorized("X-Setup-Token missing or wrong");
}

async function assertMayChangeConfig(ctx: Ctx, request: Request): Promise<void> {
  // Spec 3 section 4.1: no sign-in before initialization; the operator's setup token still counts,
  // or anyone who reached a fresh instance first could point its sign-in at their own IdP.
  if (!(await isConfigured(ctx))) return assertSetupToken(ctx, request.headers.get("x-setup-token"));
  const caller = await ctx.configAccess.caller(request);
  if (caller === null) throw unauthorized("config write after initialization needs a signed-in owner");
  const config = await stored(ctx);
  const ownerTeams = parseTeamIds(config.owner_team_id);
  const teams = ownerTeams.length > 0 ? ownerTeams : parseTeamIds(config.allowed_team_id);
  // With no owner team at all, the instance's site admins hold the config.
  const allowed = teams.length === 0 ? caller.isSiteAdmin : await ctx.configAccess.ownsAnyTeam(caller, teams);
  if (!allowed) throw forbidden("caller owns none of the owner teams");
}

/** Whether the caller may change the config now (for the settings page: it shows the form or says who may). */
export async function mayChangeConfig(ctx: Ctx, request: Request): Promise<boolean> {
  try {
    await assertMayChangeConfig(ctx, request);
    return true;
  } catch (e) {
    if (e instanceof AppError && (e.status === 401 || e.status === 403)) return false;
    throw e;
  }
}

/** True when the config names this very instance as the workspace's identity provider. */
function namesThisInstance(ctx: Pick<Ctx, "config">, config: StoredAppConfig): boolean {
  try {
    return new URL(config.idp_base_url).origin === new URL(ctx.config.issuer).origin;
  } catch {
    return false;
  }
}

/**
 * With this instance as the IdP, the config is completed and checked against what is here: the
 * built-in workspace client is registered (or found again) whenever no client is named, and the
 * team ids the patch names must be teams of this instance. Another IdP's teams cannot be known.
 */
async function settleForThisInstance(ctx: WriteCtx, next: StoredAppConfig, patch: AppConfigPatch): Promise<void> {
  if (!namesThisInstance(ctx, next)) return;
  if (next.idp_redirect_uri === "") next.idp_redirect_uri = selfHostedDefaults(ctx.config.issuer).idp_redirect_uri;
  const exists = ctx.configAccess.teamExists?.bind(ctx.configAccess);
  const named = [...(patch.allowed_team_id ? [next.allowed_team_id] : []), ...(patch.owner_team_id ? parseTeamIds(next.owner_team_id) : [])];
  const unknown: string[] = [];
  if (exists) for (const id of named) if (id !== ctx.config.allowedTeamId && !(await exists(id))) unknown.push(id);
  if (unknown.length > 0) throw invalidRequest(`no team on this instance has the id ${unknown.join(", ")}`);
  if (next.idp_client_id === "") {
    next.idp_client_id = await ensureWorkspaceClient(ctx, next.idp_redirect_uri);
    next.use_pkce = true;
    next.idp_client_secret_sealed = "";
  }
}

/** PUT /api/init/config: only provided fields change. */
export async function updateAppConfig(ctx: WriteCtx, request: Request, patch: AppConfigPatch): Promise<AppConfig> {
  await assertMayChangeConfig(ctx, request);
  const next = merge(ctx, await stored(ctx), patch);
  await withTx(ctx.db, async () => {
    // Before setup the config is a draft: setup settles it.
    if (await isConfigured(ctx)) await settleForThisInstance(ctx, next, patch);
    await writeSetting(ctx.db, ctx.clock, APP_CONFIG, next);
  });
  return getAppConfig(ctx);
}

/**
 * POST /api/init/setup: saves the config and sets the configured marker in one transaction;
 * the marker's insert decides, so of many concurrent setups exactly one succeeds. Re-running
 * after an operator deleted the marker overwrites the config and touches nothing else.
 */
export async function runSetup(ctx: WriteCtx, setupToken: string | null, config: AppConfigPatch | undefined): Promise<void> {
  if (await isConfigured(ctx)) throw alreadyConfigured();
  assertSetupToken(ctx, setupToken);
  const next = merge(ctx, selfHostedDefaults(ctx.config.issuer), config ?? {});
  await withTx(ctx.db, async () => {
    if (!(await insertSettingOnce(ctx.db, ctx.clock, CONFIGURED, { at: ctx.clock.now() }))) throw alreadyConfigured();
    // This instance as the IdP (the default, whatever access fields came along): the workspace
    // signs in through it with a client made for it.
    await settleForThisInstance(ctx, next, config ?? {});
    await writeSetting(ctx.db, ctx.clock, APP_CONFIG, next);
  });
}

/**
 * Spec 3 section 2.2: the site's name and logo are the branding of the team that owns the
 * instance (`owner_team_id`, else `allowed_team_id`); the built-in name and no logo otherwise.
 */
export async function getBranding(ctx: Pick<Ctx, "db" | "config">): Promise<{ site_name: string; site_logo_url: string }> {
  const config = await stored(ctx);
  // owner_team_id may list several teams; the first one brands the site.
  const teamId = parseTeamIds(config.owner_team_id)[0] ?? parseTeamIds(config.allowed_team_id)[0];
  if (!teamId) return { site_name: DEFAULT_SITE_NAME, site_logo_url: "" };
  const { site_name, site_logo_url } = await readTeamSettings(ctx, teamId);
  return { site_name: site_name || DEFAULT_SITE_NAME, site_logo_url };
}
