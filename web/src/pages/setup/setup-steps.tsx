import type { TeamSummary } from "../../api/teams.ts";
import { Checkbox, TextField } from "../../components/field.tsx";
import type { FormErrors, SetupForm } from "./setup-form.ts";
import { TeamAccess } from "./team-access.tsx";

export type StepProps = {
  form: SetupForm;
  errors: FormErrors;
  locked: string[];
  set: <K extends keyof SetupForm>(key: K, value: SetupForm[K]) => void;
};

export function IdentityStep({ form, errors, set }: StepProps) {
  return (
    <>
      <fieldset class="choices">
        <legend>Where do people sign in?</legend>
        <label class="choice">
          <input type="radio" name="idp" value="self" checked={form.idp === "self"} onChange={() => set("idp", "self")} />
          <span>
            <strong>This Cairn instance</strong> (recommended)
            <small>Accounts, passkeys and teams live here; the workspace is connected for you.</small>
          </span>
        </label>
        <label class="choice">
          <input type="radio" name="idp" value="external" checked={form.idp === "external"} onChange={() => set("idp", "external")} />
          <span>
            <strong>Another Cairn instance</strong>
            <small>Use an OAuth client registered on another Cairn.</small>
          </span>
        </label>
      </fieldset>
      {form.idp === "external" ? (
        <>
          <TextField
            label="Identity provider URL"
            type="url"
            placeholder="https://id.example.com"
            value={form.idp_base_url}
            error={errors.idp_base_url}
            onValue={(v) => set("idp_base_url", v)}
          />
          <TextField label="Client ID" value={form.idp_client_id} error={errors.idp_client_id} onValue={(v) => set("idp_client_id", v)} autocomplete="off" />
          <Checkbox
            label="Public client with PKCE"
            hint="Leave on unless the client was registered with a secret."
            checked={form.use_pkce}
            onChange={(v) => set("use_pkce", v)}
          />
          <TextField
            label="Client secret"
            type="password"
            value={form.idp_client_secret}
            error={errors.idp_client_secret}
            onValue={(v) => set("idp_client_secret", v)}
            autocomplete="new-password"
            hint="Stored encrypted; never shown again."
          />
          <TextField
            label="Redirect URI"
            type="url"
            value={form.idp_redirect_uri}
            error={errors.idp_redirect_uri}
            onValue={(v) => set("idp_redirect_uri", v)}
            hint="Register this address with the client."
          />
        </>
      ) : null}
    </>
  );
}

/** Team ids as the config keeps them: separated by commas. */
const idList = (text: string) => text.split(/[\s,;]+/).filter(Boolean);

/**
 * With this instance as the IdP, teams are picked from its own (and may be made here); another
 * IdP's teams cannot be listed, so their ids are typed.
 */
export function AccessStep({
  form,
  errors,
  locked,
  set,
  teams,
  createTeam,
}: StepProps & { teams: TeamSummary[] | null; createTeam: (name: string) => Promise<TeamSummary> }) {
  const teamLocked = locked.includes("allowed_team_id");
  if (form.idp === "self") {
    if (teams === null) return <p class="muted">Loading your teams…</p>;
    return (
      <TeamAccess
        teams={teams}
        allowed={form.allowed_team_id}
        owners={idList(form.owner_team_id)}
        allowedLocked={teamLocked}
        error={errors.allowed_team_id ?? errors.owner_team_id}
        onAllowed={(id) => set("allowed_team_id", id)}
        onOwners={(ids) => set("owner_team_id", ids.join(", "))}
        onCreate={createTeam}
      />
    );
  }
  return (
    <>
      <TextField
        label="Allowed team (optional)"
        value={form.allowed_team_id}
        error={errors.allowed_team_id}
        onValue={(v) => set("allowed_team_id", v)}
        disabled={teamLocked}
        hint={
          teamLocked
            ? "Locked by CAIRN_ALLOWED_TEAM_ID on the server."
            : "The id of a team at the other Cairn (shown on its team page). Only its members may sign in to the workspace; empty allows everyone."
        }
      />
      <TextField
        label="Owner teams (optional)"
        value={form.owner_team_id}
        error={errors.owner_team_id}
        onValue={(v) => set("owner_team_id", v)}
        hint="Owners of these teams may change this configuration. Separate several ids with commas or spaces; empty falls back to the allowed team."
      />
    </>
  );
}

export function ReviewStep({ form, errors, set, needsToken, teams }: StepProps & { needsToken: boolean; teams: TeamSummary[] | null }) {
  const named = (id: string) => teams?.find((t) => t.id === id)?.name ?? id;
  return (
    <>
      <dl class="summary">
        <dt>Identity provider</dt>
        <dd>{form.idp === "self" ? "This Cairn instance" : form.idp_base_url}</dd>
        <dt>Who may sign in</dt>
        <dd>{form.allowed_team_id ? `Members of ${named(form.allowed_team_id)}` : "Everyone with an account"}</dd>
        <dt>Who may change the setup</dt>
        <dd>
          {form.owner_team_id
            ? idList(form.owner_team_id)
                .map((id) => `Owners of ${named(id)}`)
                .join(", ")
            : form.allowed_team_id
              ? "The allowed team's owners"
              : "The site administrators"}
        </dd>
      </dl>
      {needsToken ? (
        <TextField
          label="Setup token"
          type="password"
          value={form.setup_token}
          error={errors.setup_token}
          onValue={(v) => set("setup_token", v)}
          hint="The value of CAIRN_SETUP_TOKEN on the server."
        />
      ) : null}
    </>
  );
}
