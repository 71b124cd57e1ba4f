import type { AppConfig } from "../../api/init.ts";

type IdpChoice = "self" | "external";

/** The wizard's answers, before they become the setup call's `config`. */
export type SetupForm = AppConfig & { idp: IdpChoice; setup_token: string };

export type FormErrors = Partial<Record<keyof SetupForm, string>>;

export function initialForm(config: AppConfig): SetupForm {
  return {
    idp: "self",
    idp_base_url: "",
    idp_client_id: "",
    idp_client_secret: "",
    idp_redirect_uri: `${location.origin}/api/workspace/callback`,
    use_pkce: true,
    allowed_team_id: config.allowed_team_id,
    owner_team_id: config.owner_team_id,
    setup_token: "",
  };
}

function urlError(value: string, required: boolean): string | undefined {
  if (value.trim() === "") return required ? "Required." : undefined;
  try {
    const url = new URL(value.trim());
    return url.protocol === "https:" || url.protocol === "http:" ? undefined : "Use an http or https address.";
  } catch {
    return "Enter a full address, such as https://id.example.com.";
  }
}

export function validateIdp(form: SetupForm): FormErrors {
  if (form.idp === "self") return {};
  const errors: FormErrors = {};
  const base = urlError(form.idp_base_url, true);
  if (base) errors.idp_base_url = base;
  const redirect = urlError(form.idp_redirect_uri, true);
  if (redirect) errors.idp_redirect_uri = redirect;
  if (form.idp_client_id.trim() === "") errors.idp_client_id = "Required.";
  if (!form.use_pkce && form.idp_client_secret === "") errors.idp_client_secret = "A confidential client needs its secret (or use PKCE).";
  return errors;
}

/** The `config` to send, or undefined to let the server connect the workspace to this instance. */
export function toSetupConfig(form: SetupForm, locked: string[]): Partial<AppConfig> | undefined {
  const access: Partial<AppConfig> = {};
  if (!locked.includes("allowed_team_id") && form.allowed_team_id.trim()) access.allowed_team_id = form.allowed_team_id.trim();
  if (form.owner_team_id.trim()) access.owner_team_id = form.owner_team_id.trim();
  if (form.idp === "self") return Object.keys(access).length ? access : undefined;
  return {
    ...access,
    idp_base_url: form.idp_base_url.trim(),
    idp_client_id: form.idp_client_id.trim(),
    idp_client_secret: form.idp_client_secret,
    idp_redirect_uri: form.idp_redirect_uri.trim(),
    use_pkce: form.use_pkce,
  };
}
