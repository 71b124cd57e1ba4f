import { badInput } from "../identity/users/identity.errors.ts";
import type { ClientInput } from "../oauth/clients/client-metadata.ts";
import type { Integration, Placeholder } from "./integration.ts";

/** What the user answered on the catalog's form. */
export type Answer = { name?: string; base_url?: string; redirect_uri?: string };

/** The app's address as typed: an absolute http(s) URL, kept without its trailing slashes. */
export function normalizeBaseUrl(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    throw badInput("base_url must be the app's full address, such as https://grafana.example.com.");
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") throw badInput("base_url must start with https:// (or http:// on this machine).");
  if (url.username || url.password || url.search || url.hash || raw.includes("#") || raw.includes("?"))
    throw badInput("base_url is the app's address only: no user, query or fragment.");
  return url.href.replace(/\/+$/, "");
}

const fill = (pattern: string, values: Partial<Record<Placeholder, string>>) =>
  pattern.replace(/\{\{\s*([a-z_]+)\s*\}\}/g, (whole, name: Placeholder) => values[name] ?? whole);

/** The entry's redirect URIs for this answer: exact URIs, never patterns. */
export function redirectUrisFor(entry: Integration, answer: Answer): { redirect_uris: string[]; post_logout_redirect_uris: string[] } {
  const values: Partial<Record<Placeholder, string>> = {};
  if (entry.ask === "base_url") {
    if (!answer.base_url) throw badInput(`base_url is required: ${entry.base_url_label ?? "the app's address"}.`);
    values.base_url = normalizeBaseUrl(answer.base_url);
  }
  if (entry.ask === "redirect_uri") {
    if (!answer.redirect_uri) throw badInput("redirect_uri is required: the address the app receives the sign-in at.");
    values.redirect_uri = answer.redirect_uri.trim();
    // Registered to match exactly: a `*` would be taken literally, never as the wildcard it looks like.
    if (values.redirect_uri.includes("*")) throw badInput("redirect_uri must be one exact address, without *.");
  }
  return {
    redirect_uris: entry.redirect_uris.map((p) => fill(p, values)),
    post_logout_redirect_uris: entry.post_logout_redirect_uris.map((p) => fill(p, values)),
  };
}

/** The dashboard registration an entry makes: every redirect URI matched exactly. */
export function registrationFor(entry: Integration, answer: Answer): ClientInput {
  const uris = redirectUrisFor(entry, answer);
  return {
    name: answer.name?.trim() || entry.name,
    redirect_uris: uris.redirect_uris.map((uri) => ({ uri, match: "equals" })),
    post_logout_redirect_uris: uris.post_logout_redirect_uris,
    public: entry.token_endpoint_auth_method === "none",
    token_endpoint_auth_method: entry.token_endpoint_auth_method,
    id_token_signed_response_alg: entry.id_token_signed_response_alg,
    scopes: entry.scopes,
  };
}

/** The app's address back from a registered redirect URI (`{{base_url}}/path` → the part before the path). */
export function baseUrlFrom(entry: Integration, redirectUri: string): string | null {
  const pattern = entry.redirect_uris.find((p) => p.includes("base_url"));
  if (entry.ask !== "base_url" || !pattern) return null;
  const path = pattern.replace(/^\{\{\s*base_url\s*\}\}/, "");
  return redirectUri.endsWith(path) ? redirectUri.slice(0, redirectUri.length - path.length) : null;
}

export type SnippetValues = Record<Placeholder, string>;

/** The snippet and notes with every `{{name}}` replaced by its value. */
export function renderSetup(entry: Integration, values: SnippetValues): { title: string; language: string; text: string; notes: string } {
  return { ...entry.snippet, text: fill(entry.snippet.text, values), notes: fill(entry.notes, values) };
}
