import { useState } from "preact/hooks";
import { type Decision, type Interaction, interactionApi, SITE_PHRASE } from "../../api/apps.ts";
import { ApiError } from "../../api/http.ts";
import { Button } from "../../components/button.tsx";
import { SelectField, TextField } from "../../components/field.tsx";
import { ScopeList } from "./scope-list.tsx";
import { Form } from "../../components/form.tsx";
import { FormError } from "../../components/form-error.tsx";

type Props = { id: string; interaction: Interaction; username: string; onGone: () => void };
type Errors = { team?: string; confirmation?: string; form?: string };

/** Approve or deny; a team picker and a typed phrase when the scopes ask for them. */
export function ConsentForm({ id, interaction, username, onGone }: Props) {
  const { client, scopes, team_picker, eligible_teams, site_confirmation } = interaction;
  const [teamId, setTeamId] = useState("");
  const [phrase, setPhrase] = useState("");
  const [errors, setErrors] = useState<Errors>({});
  const [busy, setBusy] = useState<Decision["decision"] | null>(null);

  const decide = async (decision: Decision["decision"]) => {
    const body: Decision = { decision };
    if (decision === "approve") {
      const found: Errors = {};
      if (team_picker && !teamId) found.team = "Choose the team the app may use.";
      if (site_confirmation && phrase.trim() !== SITE_PHRASE) found.confirmation = `Type "${SITE_PHRASE}" exactly.`;
      setErrors(found);
      if (Object.keys(found).length) return;
      if (team_picker) body.team_id = teamId;
      if (site_confirmation) body.confirmation = phrase.trim();
    }
    setBusy(decision);
    try {
      // The app's own redirect URI, with a code or an error: a full navigation away from here.
      location.assign(await interactionApi.decide(id, body));
    } catch (e) {
      setBusy(null);
      if (e instanceof ApiError && e.status === 404) return onGone();
      setErrors({ form: (e as Error).message });
    }
  };

  return (
    <Form onSubmit={() => void decide("approve")}>
      {client.is_verified ? null : (
        <div class="notice notice-warning" role="note">
          <p>
            <strong>Unverified app.</strong> The administrators of this site have not checked who runs it. Allow it only if you trust it.
          </p>
        </div>
      )}
      <p class="muted">
        You are signed in as <strong>{username}</strong>. If you allow it, {client.name} will be able to:
      </p>
      <ScopeList scopes={scopes} label="What the app will be able to do" appNames={interaction.apps} />
      {team_picker ? (
        <SelectField
          label="Team the app may use"
          value={teamId}
          options={[
            { value: "", label: eligible_teams.length ? "Choose a team…" : "No team you administer" },
            ...eligible_teams.map((t) => ({ value: t.id, label: t.name })),
          ]}
          onValue={(v) => {
            setTeamId(v);
            setErrors((old) => ({ ...old, team: undefined }));
          }}
          error={errors.team}
          hint="Only teams where you are an admin, co-owner or owner are listed."
        />
      ) : null}
      {site_confirmation ? (
        <div class="notice notice-danger">
          <p>
            <strong>This gives {client.name} power over the whole site</strong>, beyond your own account.
          </p>
          <TextField
            label={`Type "${SITE_PHRASE}" to confirm`}
            value={phrase}
            onValue={(v) => {
              setPhrase(v);
              setErrors((old) => ({ ...old, confirmation: undefined }));
            }}
            autocomplete="off"
            error={errors.confirmation}
          />
        </div>
      ) : null}
      <FormError message={errors.form} />
      <div class="form-actions">
        <Button variant="secondary" busy={busy === "deny"} disabled={busy !== null} onClick={() => void decide("deny")}>
          Deny
        </Button>
        <Button type="submit" busy={busy === "approve"} disabled={busy !== null || (team_picker && eligible_teams.length === 0)}>
          Approve
        </Button>
      </div>
      <p class="muted small">
        You can take back its access at any time under <a href="/account#authorized-apps">Account, Authorized apps</a>.
      </p>
    </Form>
  );
}
