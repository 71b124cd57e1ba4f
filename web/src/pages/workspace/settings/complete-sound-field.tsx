import { Button } from "../../../components/button.tsx";
import { Checkbox, TextField } from "../../../components/field.tsx";
import { toast } from "../../../lib/toasts.ts";
import { playCompleteSound } from "../model/workspace-look.ts";

type Props = { enabled: boolean; url: string; onEnabled: (on: boolean) => void; onUrl: (url: string) => void };

/** Plays the sound once, so the user hears their choice before saving it; empty is the workspace's chime. */
function playSound(url: string): void {
  if (!url) {
    playCompleteSound(undefined);
    return;
  }
  new Audio(url).play().catch(() => toast("This address could not be played as audio.", "error"));
}

/** Spec 3 section 2.4 complete_sound_enabled and complete_sound_url. */
export function CompleteSoundField({ enabled, url, onEnabled, onUrl }: Props) {
  return (
    <div class="wss-sound">
      <Checkbox label="Play a sound when I complete a todo" checked={enabled} onChange={onEnabled} />
      <div class="input-row wss-sound-row">
        <div class="grow">
          <TextField
            label="Sound URL"
            type="url"
            value={url}
            onValue={onUrl}
            placeholder="https://…/done.mp3"
            hint="An http(s) address of an audio file; leave empty for a short built-in chime."
          />
        </div>
        <Button variant="secondary" onClick={() => playSound(url.trim())}>
          Play
        </Button>
      </div>
    </div>
  );
}
