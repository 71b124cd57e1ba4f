import { useEffect, useState } from "preact/hooks";
import { useSubmit } from "../../../lib/use-submit.ts";
import { DEFAULT_TEAM_SETTINGS } from "../../../../../src/contract/team-settings.ts";
import { type TeamSettings, workspaceApi } from "../../../api/workspace.ts";
import { Button } from "../../../components/button.tsx";
import { Card } from "../../../components/card.tsx";
import { Checkbox, TextField } from "../../../components/field.tsx";
import { Form } from "../../../components/form.tsx";
import { FormError } from "../../../components/form-error.tsx";
import { toast } from "../../../lib/toasts.ts";
import { AccentColorField } from "./accent-color-field.tsx";
import { LogoUrlField } from "./logo-url-field.tsx";
import { changedFields, isEmptyPatch } from "./settings-diff.ts";
import { TimeZoneField } from "./timezone-field.tsx";
import { browserTimeZone } from "./timezones.ts";

type Props = { teamId: string; settings: TeamSettings; canManage: boolean; onSaved: (settings: TeamSettings) => void };

/** Spec 3 section 2.3: branding and defaults; PATCH sends only the fields the user changed. */
export function TeamSettingsForm({ teamId, settings, canManage, onSaved }: Props) {
  const { busy, error, submit } = useSubmit();
  const [saved, setSaved] = useState(settings);
  const [draft, setDraft] = useState(() => startingDraft(settings, canManage));
  useEffect(() => {
    setSaved(settings);
    setDraft(startingDraft(settings, canManage));
  }, [settings, canManage]);
  const suggestedZone = draft.default_timezone !== saved.default_timezone && draft.default_timezone === browserTimeZone();
  const set = <K extends keyof TeamSettings>(key: K, value: TeamSettings[K]) => setDraft((d) => ({ ...d, [key]: value }));
  const readOnly = !canManage;

  const save = async () => {
    const patch = changedFields(saved, draft);
    if (isEmptyPatch(patch)) return toast("Nothing changed.");
    // The server's text is exact (spec 3 section 7): shown as it is.
    await submit(async () => {
      const next = await workspaceApi.patchTeamSettings(teamId, patch);
      setSaved(next);
      setDraft(next);
      toast("Workspace settings saved.", "success");
      onSaved(next);
    });
  };

  return (
    <Form onSubmit={() => void save()}>
      <Card
        id="workspace-settings"
        title="Branding and defaults"
        footer={
          readOnly ? null : (
            <div class="wss-save-row">
              <FormError message={error} />
              <Button type="submit" busy={busy}>
                Save settings
              </Button>
            </div>
          )
        }
      >
        {readOnly ? <p class="notice">Only owners, co-owners and members with the “Manage settings” permission can change these settings.</p> : null}
        <h3>Branding</h3>
        <TextField label="Site name" value={draft.site_name} onValue={(v) => set("site_name", v)} autocomplete="off" disabled={readOnly} />
        <LogoUrlField value={draft.site_logo_url} onValue={(v) => set("site_logo_url", v)} disabled={readOnly} />
        <AccentColorField value={draft.accent_color} onValue={(v) => set("accent_color", v)} disabled={readOnly} />
        <h3>Defaults</h3>
        <TextField
          label="Default set name"
          value={draft.default_set_name}
          onValue={(v) => set("default_set_name", v)}
          autocomplete="off"
          disabled={readOnly}
          hint="Names the first set of an empty workspace; existing sets keep their names."
        />
        <TimeZoneField
          label="Default time zone"
          value={draft.default_timezone}
          onValue={(v) => set("default_timezone", v)}
          disabled={readOnly}
          hint={
            suggestedZone
              ? `This browser's time zone, suggested for a new workspace: it is used once you save (until then, ${saved.default_timezone}). Used for auto-renew by sets that have no time zone of their own.`
              : "Used for auto-renew by sets that have no time zone of their own."
          }
        />
        <Checkbox
          label="Members may create sets"
          hint="Lets members create sets without the “Manage sets” permission."
          checked={draft.allow_member_create_sets}
          onChange={(v) => set("allow_member_create_sets", v)}
          disabled={readOnly}
        />
      </Card>
    </Form>
  );
}

/**
 * Issue 42: a workspace whose settings were never changed starts from this browser's time zone
 * rather than UTC, shown as an unsaved change for whoever may save it.
 */
function startingDraft(settings: TeamSettings, canManage: boolean): TeamSettings {
  const untouched = (Object.keys(DEFAULT_TEAM_SETTINGS) as (keyof TeamSettings)[]).every((key) => settings[key] === DEFAULT_TEAM_SETTINGS[key]);
  return canManage && untouched ? { ...settings, default_timezone: browserTimeZone() } : settings;
}
