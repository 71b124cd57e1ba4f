import { checkRedirectUri, redirectFaultText } from "../../../../src/contract/redirect-uri-rules.ts";
import { type App, type AppInput, DEFAULT_CLIENT_SCOPES } from "../../api/apps.ts";

export type AppFormErrors = {
  name?: string;
  description?: string;
  /** A problem with the list as a whole (from the server). */
  redirect_uris?: string;
  /** Problems with single rows, by index. */
  rows?: Record<number, string>;
  post_logout_redirect_uris?: string;
  scopes?: string;
  form?: string;
};

export const NEW_APP: AppInput = {
  name: "",
  description: "",
  public: false,
  token_endpoint_auth_method: "client_secret_basic",
  id_token_signed_response_alg: "ML-DSA-65",
  redirect_uris: [{ uri: "", match: "equals" }],
  scopes: [...DEFAULT_CLIENT_SCOPES],
  oidc_fields: [],
  dpop_bound_access_tokens: false,
  require_pushed_authorization_requests: false,
  grant_types: ["authorization_code", "refresh_token"],
  post_logout_redirect_uris: [],
  backchannel_logout_uri: null,
  client_credentials_scopes: [],
};

export function formFromApp(app: App): AppInput {
  return {
    name: app.name,
    description: app.description,
    public: app.public,
    token_endpoint_auth_method: app.token_endpoint_auth_method,
    id_token_signed_response_alg: app.id_token_signed_response_alg,
    redirect_uris: app.redirect_uris.length ? app.redirect_uris.map((r) => ({ ...r })) : [{ uri: "", match: "equals" }],
    scopes: [...app.scopes],
    oidc_fields: [...app.oidc_fields],
    dpop_bound_access_tokens: app.dpop_bound_access_tokens,
    require_pushed_authorization_requests: app.require_pushed_authorization_requests,
    grant_types: [...app.grant_types],
    post_logout_redirect_uris: [...app.post_logout_redirect_uris],
    backchannel_logout_uri: app.backchannel_logout_uri,
    client_credentials_scopes: [...app.client_credentials_scopes],
  };
}

/** What is sent: trimmed text, blank redirect rows left out. */
export function inputFromForm(value: AppInput): AppInput {
  return {
    ...value,
    name: value.name.trim(),
    description: value.description.trim(),
    redirect_uris: value.redirect_uris.map((r) => ({ uri: r.uri.trim(), match: r.match })).filter((r) => r.uri !== ""),
    backchannel_logout_uri: value.backchannel_logout_uri?.trim() || null,
  };
}

/** The mistakes the page can spot before asking the server. */
export function checkAppForm(value: AppInput): AppFormErrors {
  const errors: AppFormErrors = {};
  const name = value.name.trim();
  if (!name) errors.name = "Name the app: people see this name when they are asked to allow it.";
  else if (name.length > 100) errors.name = "At most 100 characters.";
  if (value.description.trim().length > 500) errors.description = "At most 500 characters.";
  const rows: Record<number, string> = {};
  value.redirect_uris.forEach((r, i) => {
    const uri = r.uri.trim();
    // Patterns are RE2, which the browser's RegExp does not fully share: the server judges those.
    const fault = uri !== "" && r.match === "equals" ? checkRedirectUri(uri).fault : null;
    if (fault) rows[i] = redirectFaultText(fault, uri, { app: name || null });
  });
  if (Object.keys(rows).length) errors.rows = rows;
  const afterSignOut = value.post_logout_redirect_uris.map((uri) => ({ uri, fault: checkRedirectUri(uri).fault })).find((u) => u.fault !== null);
  if (afterSignOut?.fault)
    errors.post_logout_redirect_uris = redirectFaultText(afterSignOut.fault, afterSignOut.uri, { app: name || null, role: "post_logout" });
  if (value.scopes.length === 0) errors.scopes = "Allow at least one scope.";
  return errors;
}

/** The API's refusals start with the field they name (`redirect_uris: …`), for the page to place them. */
const FIELD = /^(\w+):\s*(.*)$/s;

/** The server's message as people read it: without the field name it starts with. */
export const withoutFieldName = (message: string) => FIELD.exec(message)?.[2] ?? message;

/**
 * Puts the server's message beside the field it names (`name: …`, `redirect_uris: …`); a refused
 * redirect URI that the message names goes beside its own row.
 */
export function errorsFromServer(message: string, rows: AppInput["redirect_uris"] = []): AppFormErrors {
  const field = FIELD.exec(message);
  const text = field?.[2] ?? message;
  switch (field?.[1]) {
    case "name":
      return { name: text };
    case "description":
      return { description: text };
    case "redirect_uris": {
      const row = rows.findIndex((r) => r.uri.trim() !== "" && text.includes(r.uri.trim()));
      return row >= 0 ? { rows: { [row]: text } } : { redirect_uris: text };
    }
    case "post_logout_redirect_uris":
      return { post_logout_redirect_uris: text };
    case "scopes":
    case "oidc_fields":
      return { scopes: text };
    default:
      return { form: message };
  }
}
