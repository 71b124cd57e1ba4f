import { useEffect, useState } from "preact/hooks";
import { type AppConfig, initApi } from "../../api/init.ts";
import { type TeamSummary, teamsApi } from "../../api/teams.ts";
import { EmptyState } from "../../components/empty-state.tsx";
import { FormCard } from "../../components/form-card.tsx";
import { FormError } from "../../components/form-error.tsx";
import { toast } from "../../lib/toasts.ts";
import { currentUser } from "../../lib/session.ts";
import { type FormErrors, initialForm, type SetupForm, toSetupConfig, validateIdp } from "../setup/setup-form.ts";
import { AccessStep, IdentityStep } from "../setup/setup-steps.tsx";

type Loaded = { config: AppConfig; locked: string[]; writable: boolean };

const isThisInstance = (base: string) => {
  try {
    return new URL(base).origin === location.origin;
  } catch {
    return base === "";
  }
};

/** The form as the stored config says: this instance or another, and who may use and change it. */
function formFrom(config: AppConfig): SetupForm {
  const self = isThisInstance(config.idp_base_url);
  return {
    ...initialForm(config),
    idp: self ? "self" : "external",
    ...(self
      ? {}
      : { idp_base_url: config.idp_base_url, idp_client_id: config.idp_client_id, idp_redirect_uri: config.idp_redirect_uri, use_pkce: config.use_pkce }),
  };
}

/**
 * What to send. Back on this instance, or with no client named, the server registers (or finds
 * again) the workspace's own client; a secret left blank keeps the stored one.
 */
function patchFrom(form: SetupForm, stored: AppConfig, locked: string[]): Partial<AppConfig> {
  const access = { allowed_team_id: form.allowed_team_id.trim(), owner_team_id: form.owner_team_id.trim() };
  if (locked.includes("allowed_team_id")) delete (access as Partial<AppConfig>).allowed_team_id;
  if (form.idp === "self") {
    const repair = !isThisInstance(stored.idp_base_url) || stored.idp_client_id === "";
    const self = { idp_base_url: location.origin, idp_redirect_uri: `${location.origin}/api/workspace/callback`, use_pkce: true };
    return { ...access, ...(repair ? { ...self, idp_client_id: "", idp_client_secret: "" } : {}) };
  }
  const external = toSetupConfig(form, locked) ?? {};
  if (form.idp_client_secret === "") delete external.idp_client_secret;
  return { ...external, ...access };
}

/** Settings → Workspace connection: the app config after setup (spec 3 section 4.1), for its owners. */
export function SettingsPage() {
  const [loaded, setLoaded] = useState<Loaded | null>(null);
  const [form, setForm] = useState<SetupForm | null>(null);
  const [teams, setTeams] = useState<TeamSummary[] | null>(null);
  const [errors, setErrors] = useState<FormErrors & { form?: string }>({});
  const [busy, setBusy] = useState(false);
  const user = currentUser.value;

  useEffect(() => {
    initApi.config().then(
      (answer) => {
        setLoaded(answer);
        setForm(formFrom(answer.config));
      },
      (e: Error) => toast(e.message, "error"),
    );
    if (user) teamsApi.list().then(setTeams, () => setTeams([]));
  }, [user?.id]);

  if (!loaded || !form) return <p class="muted">Loading…</p>;
  if (!loaded.writable)
    return (
      <EmptyState
        title="Workspace connection"
        action={
          user ? (
            <a class="btn btn-secondary" href="/">
              Go home
            </a>
          ) : (
            <a class="btn btn-primary" href="/login?return_to=/settings">
              Sign in
            </a>
          )
        }
      >
        Only the owners of the teams that own this instance may change how the workspace signs people in (the site administrators, when no team is named).
        {user ? " Your account is not one of them." : " Sign in to see whether yours is."}
      </EmptyState>
    );

  const set = <K extends keyof SetupForm>(key: K, value: SetupForm[K]) => {
    setForm({ ...form, [key]: value });
    setErrors({ ...errors, [key]: undefined, form: undefined });
  };
  const save = async () => {
    const found = validateIdp(form);
    setErrors(found);
    if (Object.keys(found).length) return;
    setBusy(true);
    try {
      const config = await initApi.updateConfig(patchFrom(form, loaded.config, loaded.locked));
      setLoaded({ ...loaded, config });
      setForm({ ...formFrom(config), idp_client_secret: "" });
      toast("Saved. The workspace signs in with these settings from now on.", "success");
    } catch (e) {
      setErrors({
        form:
          (e as Error).message === "Invalid request"
            ? "The server refused these settings: check the addresses and that the teams still exist."
            : (e as Error).message,
      });
    } finally {
      setBusy(false);
    }
  };
  const props = { form, errors, locked: loaded.locked, set };
  return (
    <div class="page narrow-page">
      <header class="page-head">
        <h1>Workspace connection</h1>
        <p class="muted">Where the workspace signs people in, who may use it, and who may change this. Setup made the first choice; change it here.</p>
      </header>
      <FormCard title="Identity provider and access" submitLabel="Save" busy={busy} onSubmit={() => void save()}>
        <IdentityStep {...props} />
        <AccessStep
          {...props}
          teams={teams}
          createTeam={async (name) => {
            const team = await teamsApi.createOwned(name);
            setTeams([...(teams ?? []), team]);
            return team;
          }}
        />
        <FormError message={errors.form} />
      </FormCard>
    </div>
  );
}
