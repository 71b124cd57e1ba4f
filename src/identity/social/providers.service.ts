import { asc, count, eq } from "drizzle-orm";
import type { AppContext } from "../../context/context.ts";
import { audit } from "../audit/audit.service.ts";
import { badInput, conflict, missing } from "../users/identity.errors.ts";
import { identityProviders, type IdentityProviderRow, socialAccounts } from "./social.table.ts";
import { oidcConfiguration } from "./upstream-oidc.ts";
import { SECRET_PURPOSE, type UpstreamCtx, UpstreamFailure } from "./upstream.ts";

type Ctx = UpstreamCtx & Pick<AppContext, "db" | "config">;

export type ProviderInput = {
  slug?: string;
  kind?: "oidc" | "github";
  name?: string;
  issuer?: string;
  web_url?: string;
  api_url?: string;
  client_id?: string;
  client_secret?: string;
  scopes?: string;
  enabled?: boolean;
  trust_email?: boolean;
};

const SLUG = /^[a-z0-9][a-z0-9-]{0,31}$/;
const DEFAULT_SCOPES = { oidc: "openid profile email", github: "read:user user:email" } as const;
const GITHUB = { web_url: "https://github.com", api_url: "https://api.github.com" } as const;
const MAX_PROVIDERS = 20;

/** The address to register at the provider as the redirect (callback) URI. */
export const callbackUrl = (ctx: Pick<AppContext, "config">, slug: string) => `${ctx.config.issuer}/api/auth/social/${slug}/callback`;

/** How many accounts sign in with the provider. */
const linkedCount = async (ctx: Pick<AppContext, "db">, providerId: string) =>
  (await ctx.db.select({ n: count() }).from(socialAccounts).where(eq(socialAccounts.providerId, providerId)).get())?.n ?? 0;

export async function providerView(ctx: Pick<AppContext, "config" | "db">, p: IdentityProviderRow) {
  const linked = await linkedCount(ctx, p.id);
  return {
    id: p.id,
    slug: p.slug,
    kind: p.kind,
    name: p.name,
    issuer: p.issuer,
    web_url: p.webUrl,
    api_url: p.apiUrl,
    client_id: p.clientId,
    client_secret_set: p.clientSecretSealed !== null,
    scopes: p.scopes,
    enabled: p.enabled,
    trust_email: p.trustEmail,
    callback_url: callbackUrl(ctx, p.slug),
    linked_accounts: linked,
    created_at: p.createdAt,
    updated_at: p.updatedAt,
  };
}

export const listProviders = (ctx: Pick<AppContext, "db">) => ctx.db.select().from(identityProviders).orderBy(asc(identityProviders.createdAt)).all();

/** The buttons of the login page: enabled providers, by name and slug only. */
export const publicProviders = async (ctx: Pick<AppContext, "db">) =>
  (await listProviders(ctx)).filter((p) => p.enabled).map((p) => ({ slug: p.slug, name: p.name, kind: p.kind }));

export const providerBySlug = async (ctx: Pick<AppContext, "db">, slug: string) =>
  (await ctx.db.select().from(identityProviders).where(eq(identityProviders.slug, slug)).get()) ?? null;

async function providerById(ctx: Pick<AppContext, "db">, id: string): Promise<IdentityProviderRow> {
  const row = await ctx.db.select().from(identityProviders).where(eq(identityProviders.id, id)).get();
  if (!row) throw missing("Identity provider");
  return row;
}

/** An absolute http(s) URL without credentials, query or fragment, kept without a trailing slash. */
function baseUrl(raw: string, what: string): string {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    throw badInput(`The ${what} must be an absolute URL.`);
  }
  if (!["https:", "http:"].includes(url.protocol) || url.username || url.password || url.search || url.hash || raw.length > 500)
    throw badInput(`The ${what} must be an https URL without a query or fragment.`);
  return url.href.replace(/\/$/, "");
}

function text(raw: string, what: string, max: number): string {
  const value = raw.trim();
  if (value === "" || value.length > max || /[\u0000-\u001f\u007f]/.test(value)) throw badInput(`The ${what} must be 1 to ${max} characters.`);
  return value;
}

/** The row a create or update ends with, checked field by field. */
function merged(ctx: Ctx, base: IdentityProviderRow, input: ProviderInput): IdentityProviderRow {
  const next = { ...base };
  if (input.name !== undefined) next.name = text(input.name, "name", 60);
  if (input.client_id !== undefined) next.clientId = text(input.client_id, "client id", 300);
  if (input.client_secret !== undefined)
    next.clientSecretSealed = input.client_secret === "" ? null : ctx.secrets.seal(text(input.client_secret, "client secret", 500), SECRET_PURPOSE);
  if (input.scopes !== undefined) {
    const scopes = input.scopes.trim().split(/\s+/).filter(Boolean);
    if (scopes.length === 0 || scopes.length > 20 || scopes.some((s) => !/^[\x21\x23-\x5b\x5d-\x7e]{1,100}$/.test(s)))
      throw badInput("Scopes are a space-separated list.");
    next.scopes = [...new Set(scopes)].join(" ");
  }
  if (input.enabled !== undefined) next.enabled = input.enabled;
  if (input.trust_email !== undefined) next.trustEmail = input.trust_email;
  if (next.kind === "oidc") {
    if (input.issuer !== undefined) next.issuer = baseUrl(input.issuer, "issuer");
    if (next.issuer === "") throw badInput("An OpenID Connect provider needs its issuer URL.");
    if (!next.scopes.split(" ").includes("openid")) throw badInput('The scopes of an OpenID Connect provider include "openid".');
  } else {
    if (input.web_url !== undefined) next.webUrl = baseUrl(input.web_url || GITHUB.web_url, "web URL");
    if (input.api_url !== undefined) next.apiUrl = baseUrl(input.api_url || GITHUB.api_url, "API URL");
    // GitHub Enterprise Server keeps its API at <web>/api/v3: its tokens never go to api.github.com.
    // A web URL given alone moves an API URL that followed the old one (github.com's, or <web>/api/v3).
    else if (input.web_url !== undefined && [GITHUB.api_url, `${base.webUrl}/api/v3`].includes(base.apiUrl))
      next.apiUrl = next.webUrl === GITHUB.web_url ? GITHUB.api_url : `${next.webUrl}/api/v3`;
    if (next.clientSecretSealed === null) throw badInput("GitHub needs the OAuth app's client secret.");
  }
  return next;
}

/**
 * Reads the issuer's discovery document once before saving, so a typo or a provider that answers
 * for another issuer is said at once, not on someone's first sign-in.
 */
async function assertDiscoverable(ctx: Ctx, provider: IdentityProviderRow): Promise<void> {
  if (provider.kind !== "oidc") return;
  try {
    await oidcConfiguration(ctx, provider);
  } catch (e) {
    const failure = e instanceof UpstreamFailure ? e : new UpstreamFailure("rejected", (e as Error).message);
    ctx.log.info("identity provider discovery failed", { issuer: provider.issuer, detail: failure.detail });
    throw badInput(
      failure.kind === "issuer_mismatch"
        ? `The discovery document at ${provider.issuer} names another issuer: the issuer URL must be exactly the provider's.`
        : failure.kind === "unreachable"
          ? `Cairn could not read ${provider.issuer}/.well-known/openid-configuration: the URL could not be fetched (only public https addresses are reached).`
          : `The discovery document at ${provider.issuer} is not usable: ${failure.detail}`,
    );
  }
}

export async function createProvider(ctx: Ctx, actorUserId: string, input: ProviderInput): Promise<IdentityProviderRow> {
  const slug = (input.slug ?? "").trim().toLowerCase();
  if (!SLUG.test(slug)) throw badInput("The slug is 1 to 32 lowercase letters, digits or '-' (it becomes part of the callback URL).");
  const kind = input.kind;
  if (kind !== "oidc" && kind !== "github") throw badInput('The kind is "oidc" or "github".');
  if (input.name === undefined || input.client_id === undefined) throw badInput("A provider needs a name and a client id.");
  const now = ctx.clock.now();
  const blank: IdentityProviderRow = {
    id: crypto.randomUUID(),
    slug,
    kind,
    name: "",
    issuer: "",
    webUrl: kind === "github" ? GITHUB.web_url : "",
    apiUrl: kind === "github" ? GITHUB.api_url : "",
    clientId: "",
    clientSecretSealed: null,
    scopes: DEFAULT_SCOPES[kind],
    enabled: true,
    trustEmail: false,
    createdAt: now,
    updatedAt: now,
  };
  const row = merged(ctx, blank, input);
  if (await providerBySlug(ctx, slug)) throw conflict("Another provider has that slug.");
  if ((await listProviders(ctx)).length >= MAX_PROVIDERS) throw conflict(`At most ${MAX_PROVIDERS} identity providers.`);
  await assertDiscoverable(ctx, row);
  try {
    await ctx.db.insert(identityProviders).values(row).run();
  } catch {
    throw conflict("Another provider has that slug.");
  }
  await audit(ctx, { actorUserId, action: "admin.identity_provider_created", details: { slug, kind } });
  return row;
}

export async function updateProvider(ctx: Ctx, actorUserId: string, id: string, input: ProviderInput): Promise<IdentityProviderRow> {
  const current = await providerById(ctx, id);
  if (input.slug !== undefined && input.slug !== current.slug)
    throw badInput("The slug cannot change: it is part of the callback URL registered at the provider.");
  if (input.kind !== undefined && input.kind !== current.kind) throw badInput("The kind cannot change: add another provider instead.");
  const row = { ...merged(ctx, current, input), updatedAt: Math.max(ctx.clock.now(), current.updatedAt + 1) };
  // Links hold the provider's user ids; another server's ids would sign in to these accounts.
  const moved = row.issuer !== current.issuer || row.webUrl !== current.webUrl || row.apiUrl !== current.apiUrl;
  const linked = await linkedCount(ctx, id);
  if (moved && linked > 0)
    throw conflict(
      `${current.name} has ${linked} linked account(s): user ids from another server would sign in to them. Add the other server as a new provider instead.`,
    );
  if (row.issuer !== current.issuer || row.clientId !== current.clientId) await assertDiscoverable(ctx, row);
  await ctx.db.update(identityProviders).set(row).where(eq(identityProviders.id, id)).run();
  const changed = Object.keys(input).map((k) => (k === "client_secret" ? "client_secret (changed)" : k));
  await audit(ctx, { actorUserId, action: "admin.identity_provider_updated", details: { slug: current.slug, changed } });
  return row;
}

/** Removes the provider and every link to it: those people sign in another way from then on. */
export async function deleteProvider(ctx: Ctx, actorUserId: string, id: string): Promise<{ unlinked: number }> {
  const current = await providerById(ctx, id);
  const unlinked = await linkedCount(ctx, id);
  await ctx.db.delete(identityProviders).where(eq(identityProviders.id, id)).run();
  for (const key of ctx.identity.upstreams.keys()) if (key.startsWith(`${id}:`)) ctx.identity.upstreams.delete(key);
  await audit(ctx, { actorUserId, action: "admin.identity_provider_deleted", details: { slug: current.slug, unlinked } });
  return { unlinked };
}
