import { useState } from "preact/hooks";
import type { TeamSummary } from "../../api/teams.ts";
import { Button } from "../../components/button.tsx";
import { SelectField } from "../../components/field.tsx";

type Props = {
  teams: TeamSummary[];
  allowed: string;
  owners: string[];
  allowedLocked: boolean;
  error?: string;
  onAllowed: (teamId: string) => void;
  onOwners: (teamIds: string[]) => void;
  /** Creates a team owned by the person setting up; answers it (it is then chosen as the allowed team). */
  onCreate: (name: string) => Promise<TeamSummary>;
};

const EVERYONE = "";

/**
 * Who may use the workspace and who may change its setup, picked from this instance's teams
 * (never typed as ids): everyone with an account, or one team, created here if need be; the
 * owners of chosen teams may change the setup later.
 */
export function TeamAccess({ teams, allowed, owners, allowedLocked, error, onAllowed, onOwners, onCreate }: Props) {
  const [name, setName] = useState("");
  const [busy, setBusy] = useState(false);
  const [createError, setCreateError] = useState<string | null>(null);
  const known = teams.some((t) => t.id === allowed);
  const options = [
    { value: EVERYONE, label: "Everyone with an account on this Cairn" },
    ...teams.map((t) => ({ value: t.id, label: `Members of ${t.name}` })),
    ...(allowed && !known ? [{ value: allowed, label: `The team ${allowed}` }] : []),
  ];
  const owned = teams.filter((t) => t.role === "owner");
  const create = async () => {
    if (!name.trim()) return setCreateError("Name the team.");
    setBusy(true);
    setCreateError(null);
    try {
      const team = await onCreate(name.trim());
      setName("");
      onAllowed(team.id);
    } catch (e) {
      setCreateError((e as Error).message);
    } finally {
      setBusy(false);
    }
  };
  return (
    <>
      <SelectField
        label="Who may sign in to the workspace?"
        value={allowed}
        options={options}
        onValue={onAllowed}
        disabled={allowedLocked}
        error={error}
        hint={
          allowedLocked ? (
            "Locked by CAIRN_ALLOWED_TEAM_ID on the server."
          ) : allowed ? (
            <span class="mono">Team id {allowed}</span>
          ) : (
            "Anyone who has an account here."
          )
        }
      />
      {allowedLocked ? null : (
        <div class="field inline-create">
          <label for="new-team-name">Or create a team for it</label>
          <div class="row">
            <input
              id="new-team-name"
              class="input"
              value={name}
              placeholder="Household"
              aria-invalid={createError ? true : undefined}
              aria-describedby={createError ? "new-team-error" : undefined}
              onInput={(e) => setName(e.currentTarget.value)}
              onKeyDown={(e) => {
                if (e.key === "Enter") {
                  e.preventDefault();
                  void create();
                }
              }}
            />
            <Button variant="secondary" busy={busy} onClick={() => void create()}>
              Create team
            </Button>
          </div>
          {createError ? (
            <p class="field-error" id="new-team-error" role="alert">
              {createError}
            </p>
          ) : null}
        </div>
      )}
      <fieldset class="choices">
        <legend>Who may change this setup later?</legend>
        {owned.length === 0 ? (
          <p class="field-hint">You own no team yet: the site administrators may (and the allowed team's owners, once you choose one).</p>
        ) : null}
        {owned.map((t) => (
          <label class="choice" key={t.id}>
            <input
              type="checkbox"
              checked={owners.includes(t.id)}
              onChange={(e) => onOwners(e.currentTarget.checked ? [...owners, t.id] : owners.filter((id) => id !== t.id))}
            />
            <span>
              <strong>Owners of {t.name}</strong>
              <small class="mono">{t.id}</small>
            </span>
          </label>
        ))}
        {owned.length > 0 ? <p class="field-hint">None chosen: the allowed team's owners, or the site administrators when everyone may sign in.</p> : null}
      </fieldset>
    </>
  );
}
