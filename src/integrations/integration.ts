import { isKnownScope } from "../contract/scopes.ts";
import { ID_TOKEN_ALGS } from "../keys/jwt-signer.ts";

import { ASKS, ENTRY_AUTH_METHODS, INTEGRATION_KINDS, JWKS_CHOICES, PLACEHOLDERS, PROXY_KINDS } from "../contract/api/integration-lists.ts";
import type { Integration } from "../contract/api/integrations.ts";

export type { Integration } from "../contract/api/integrations.ts";
export type { Placeholder } from "../contract/api/integration-lists.ts";

export class CatalogError extends Error {}

const ID = /^[a-z0-9][a-z0-9-]{0,62}$/;
const PLACEHOLDER = /\{\{\s*([^}]*?)\s*\}\}/g;

/** The `{{names}}` a text uses. */
export function placeholdersIn(text: string): string[] {
  return [...text.matchAll(PLACEHOLDER)].map((m) => m[1] as string);
}

function str(raw: Record<string, unknown>, key: string, { required = true, max = 200 } = {}): string {
  const v = raw[key];
  if (v === undefined || v === null) {
    if (required) throw new CatalogError(`${key} is required`);
    return "";
  }
  if (typeof v !== "string") throw new CatalogError(`${key} must be a string`);
  if (required && v.trim() === "") throw new CatalogError(`${key} must not be empty`);
  if (v.length > max) throw new CatalogError(`${key} is longer than ${max} characters`);
  return v;
}

function strings(raw: Record<string, unknown>, key: string, required = false): string[] {
  const v = raw[key];
  if (v === undefined || v === null) {
    if (required) throw new CatalogError(`${key} is required`);
    return [];
  }
  if (!Array.isArray(v) || v.some((s) => typeof s !== "string")) throw new CatalogError(`${key} must be a list of strings`);
  return v as string[];
}

function oneOf<T extends string>(raw: Record<string, unknown>, key: string, allowed: readonly T[], fallback?: T): T {
  const v = raw[key] ?? fallback;
  if (typeof v !== "string" || !(allowed as readonly string[]).includes(v)) throw new CatalogError(`${key} must be one of ${allowed.join(", ")}`);
  return v as T;
}

function httpsUrl(key: string, value: string): void {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new CatalogError(`${key}: ${value} is not a URL`);
  }
  if (url.protocol !== "https:") throw new CatalogError(`${key}: ${value} must be https`);
}

/**
 * A redirect URI pattern: the app's address and a path, the user's own URI, or a fixed https URL.
 * Never a wildcard or a pattern: an entry registers exact URIs only.
 */
function checkRedirect(key: string, pattern: string, ask: Integration["ask"]): void {
  if (/[*?#\s]/.test(pattern)) throw new CatalogError(`${key}: ${pattern} must be an exact URI (no *, ?, # or spaces)`);
  const names = placeholdersIn(pattern);
  if (names.length === 0) {
    httpsUrl(key, pattern);
    return;
  }
  if (ask === "base_url" && names.length === 1 && names[0] === "base_url" && /^\{\{\s*base_url\s*\}\}(\/[^{}]*)?$/.test(pattern)) return;
  if (ask === "redirect_uri" && key === "redirect_uris" && /^\{\{\s*redirect_uri\s*\}\}$/.test(pattern)) return;
  throw new CatalogError(`${key}: ${pattern} must be {{base_url}} and a path${ask === "redirect_uri" ? ", {{redirect_uri}}" : ""} or a fixed https URL`);
}

function onlyFields(raw: Record<string, unknown>, known: string[]): void {
  const unknown = Object.keys(raw).filter((k) => !known.includes(k));
  if (unknown.length) throw new CatalogError(`unknown field ${unknown.join(", ")}`);
}

/** What every entry says about itself. */
function described(r: Record<string, unknown>) {
  const docsUrl = str(r, "docs_url", { max: 500 });
  httpsUrl("docs_url", docsUrl);
  return { name: str(r, "name", { max: 60 }), category: str(r, "category", { max: 40 }), description: str(r, "description", { max: 300 }), docs_url: docsUrl };
}

/**
 * A forward-auth entry: a reverse proxy's configuration for one app (proxy-snippets.ts), written
 * from the app's address and its upstream. It registers no app, so the OpenID Connect fields are empty.
 */
function parseForwardAuth(id: string, r: Record<string, unknown>): Integration {
  onlyFields(r, ["kind", "proxy", "name", "category", "description", "docs_url", "base_url_label", "base_url_example", "notes"]);
  const example = str(r, "base_url_example", { required: false }) || "https://app.home.example";
  httpsUrl("base_url_example", example);
  const notes = str(r, "notes", { required: false, max: 2000 });
  if (placeholdersIn(notes).length)
    throw new CatalogError("notes: a forward-auth entry has no placeholders (its configuration is written with the real values)");
  return {
    id,
    kind: "forward_auth",
    proxy: oneOf(r, "proxy", PROXY_KINDS),
    ...described(r),
    ask: "base_url",
    base_url_label: str(r, "base_url_label", { required: false, max: 80 }) || "The app's address, as people open it",
    base_url_example: example,
    redirect_uris: [],
    post_logout_redirect_uris: [],
    token_endpoint_auth_method: "none",
    id_token_signed_response_alg: "",
    jwks: "all",
    scopes: [],
    claims_used: [],
    snippet: { title: "", language: "", text: "" },
    notes,
  };
}

/** Checks one parsed catalog file; `id` is its file name without `.yaml`. */
export function parseIntegration(id: string, raw: unknown): Integration {
  if (!ID.test(id)) throw new CatalogError(`the file name ${id} must be lowercase letters, digits and dashes`);
  if (raw === null || typeof raw !== "object" || Array.isArray(raw)) throw new CatalogError("the file must hold a mapping");
  const r = raw as Record<string, unknown>;
  if (oneOf(r, "kind", INTEGRATION_KINDS, "oidc") === "forward_auth") return parseForwardAuth(id, r);
  onlyFields(r, [
    "kind",
    "name",
    "category",
    "description",
    "docs_url",
    "ask",
    "base_url_label",
    "base_url_example",
    "redirect_uris",
    "post_logout_redirect_uris",
    "token_endpoint_auth_method",
    "id_token_signed_response_alg",
    "jwks",
    "scopes",
    "claims_used",
    "snippet",
    "notes",
  ]);

  const ask = oneOf(r, "ask", ASKS);
  const baseLabel = ask === "base_url" ? str(r, "base_url_label", { max: 80 }) : null;
  const baseExample = ask === "base_url" ? str(r, "base_url_example", { max: 200 }) : null;
  if (baseExample !== null) httpsUrl("base_url_example", baseExample);

  const redirects = strings(r, "redirect_uris", true);
  if (redirects.length === 0 || redirects.length > 5) throw new CatalogError("redirect_uris: 1 to 5");
  for (const p of redirects) checkRedirect("redirect_uris", p, ask);
  const postLogout = strings(r, "post_logout_redirect_uris");
  for (const p of postLogout) checkRedirect("post_logout_redirect_uris", p, ask);

  const alg = oneOf(r, "id_token_signed_response_alg", ID_TOKEN_ALGS);
  const jwks = oneOf(r, "jwks", JWKS_CHOICES, "all");
  if (jwks === "classic" && alg === "ML-DSA-65") throw new CatalogError("jwks: classic holds no ML-DSA-65 key; use all");
  const method = oneOf(r, "token_endpoint_auth_method", ENTRY_AUTH_METHODS);

  const scopes = strings(r, "scopes", true);
  if (!scopes.includes("openid")) throw new CatalogError("scopes must include openid");
  const unknownScopes = scopes.filter((s) => !isKnownScope(s));
  if (unknownScopes.length) throw new CatalogError(`scopes: unknown ${unknownScopes.join(", ")}`);

  const s = r.snippet as Record<string, unknown> | undefined;
  if (!s || typeof s !== "object") throw new CatalogError("snippet is required");
  const snippet = { title: str(s, "title", { max: 120 }), language: str(s, "language", { max: 20 }), text: str(s, "text", { max: 8000 }) };
  const notes = str(r, "notes", { required: false, max: 2000 });
  const used = placeholdersIn(snippet.text);
  const stray = [...used, ...placeholdersIn(notes)].filter((n) => !(PLACEHOLDERS as readonly string[]).includes(n));
  if (stray.length) throw new CatalogError(`snippet: unknown placeholder ${stray.map((n) => `{{${n}}}`).join(", ")}`);
  if (!used.includes("client_id")) throw new CatalogError("snippet must name {{client_id}}");
  if (method !== "none" && !used.includes("client_secret")) throw new CatalogError("snippet must name {{client_secret}} (the app authenticates with it)");
  if (method === "none" && used.includes("client_secret")) throw new CatalogError("snippet names {{client_secret}}, but a public client has none");
  if ([...used, ...placeholdersIn(notes)].includes("post_logout_redirect_uri") && postLogout.length === 0)
    throw new CatalogError("snippet names {{post_logout_redirect_uri}}, but post_logout_redirect_uris is empty");

  return {
    id,
    kind: "oidc",
    proxy: null,
    ...described(r),
    ask,
    base_url_label: baseLabel,
    base_url_example: baseExample,
    redirect_uris: redirects,
    post_logout_redirect_uris: postLogout,
    token_endpoint_auth_method: method,
    id_token_signed_response_alg: alg,
    jwks,
    scopes: [...new Set(scopes)],
    claims_used: strings(r, "claims_used"),
    snippet,
    notes,
  };
}
