import { useEffect, useState } from "preact/hooks";
import { useSubmit } from "../../../lib/use-submit.ts";
import { type UserSettings, workspaceApi } from "../../../api/workspace.ts";
import { Button } from "../../../components/button.tsx";
import { Card } from "../../../components/card.tsx";
import { Checkbox } from "../../../components/field.tsx";
import { Form } from "../../../components/form.tsx";
import { FormError } from "../../../components/form-error.tsx";
import { toast } from "../../../lib/toasts.ts";
import { useLoad } from "../../../lib/use-load.ts";
import { ActionBarEditor } from "./action-bar-editor.tsx";
import { CompleteSoundField } from "./complete-sound-field.tsx";
import { NoticeFields } from "./notice-fields.tsx";
import { RadioGroup } from "./radio-group.tsx";
import { changedFields, isEmptyPatch } from "./settings-diff.ts";
import { type ResolvedUserSettings, resolveUserSettings } from "./user-settings-defaults.ts";

type Transport = ResolvedUserSettings["realtime_transport"];
const TRANSPORTS: { value: Transport; label: string; hint?: string }[] = [
  { value: "auto", label: "Automatic", hint: "WebSocket, falling back to Server-Sent Events." },
  { value: "ws", label: "WebSocket" },
  { value: "sse", label: "Server-Sent Events", hint: "For networks that block WebSockets." },
];

/** The signed-in user's workspace preferences (spec 3 section 2.4); PUT sends only what changed. */
export function UserSettingsPage({ onSaved }: { onSaved: (settings: UserSettings) => void }) {
  const loaded = useLoad(() => workspaceApi.userSettings());
  const { busy, error, submit } = useSubmit();
  const [saved, setSaved] = useState<ResolvedUserSettings | null>(null);
  const [draft, setDraft] = useState<ResolvedUserSettings | null>(null);
  useEffect(() => {
    if (!loaded.data) return;
    const resolved = resolveUserSettings(loaded.data);
    setSaved(resolved);
    setDraft(resolved);
  }, [loaded.data]);

  if (!draft || !saved)
    return (
      <div class="page wss-settings">
        <Card title="Preferences">{loaded.error ? <FormError message={loaded.error} /> : <p class="muted">Loading…</p>}</Card>
      </div>
    );
  const set = <K extends keyof ResolvedUserSettings>(key: K, value: ResolvedUserSettings[K]) => setDraft({ ...draft, [key]: value });

  const save = async () => {
    const patch = changedFields(saved, draft);
    if (isEmptyPatch(patch)) return toast("Nothing changed.");
    await submit(async () => {
      const next = await workspaceApi.putUserSettings(patch);
      const resolved = resolveUserSettings(next);
      setSaved(resolved);
      setDraft(resolved);
      toast("Preferences saved.", "success");
      onSaved(next);
    });
  };

  return (
    <div class="page wss-settings">
      <Form onSubmit={() => void save()}>
        <Card
          id="preferences"
          title="Preferences"
          footer={
            <div class="wss-save-row">
              <FormError message={error} />
              <Button type="submit" busy={busy}>
                Save preferences
              </Button>
            </div>
          }
        >
          <p class="muted">These apply to you in every workspace.</p>
          <ActionBarEditor value={draft.action_bar} onValue={(bar) => set("action_bar", bar)} />
          <RadioGroup legend="Live updates" value={draft.realtime_transport} options={TRANSPORTS} onValue={(v) => set("realtime_transport", v)} />
          <h3>Display</h3>
          <Checkbox label="Browser tab icon follows the workspace icon" checked={draft.workspace_favicon} onChange={(v) => set("workspace_favicon", v)} />
          <Checkbox
            label="Show completed and remaining counts in the page header"
            checked={draft.detailed_status}
            onChange={(v) => set("detailed_status", v)}
          />
          <Checkbox
            label="Use my avatar as the personal workspace icon"
            checked={draft.personal_avatar_icon}
            onChange={(v) => set("personal_avatar_icon", v)}
          />
          <h3>Sound</h3>
          <CompleteSoundField
            enabled={draft.complete_sound_enabled}
            url={draft.complete_sound_url}
            onEnabled={(v) => set("complete_sound_enabled", v)}
            onUrl={(v) => set("complete_sound_url", v)}
          />
          <h3>Email notices</h3>
          <NoticeFields draft={draft} set={set} />
        </Card>
      </Form>
    </div>
  );
}
