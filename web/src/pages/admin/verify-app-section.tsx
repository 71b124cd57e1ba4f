import { useState } from "preact/hooks";
import { appsApi } from "../../api/apps.ts";
import { Button } from "../../components/button.tsx";
import { Card } from "../../components/card.tsx";
import { TextField } from "../../components/field.tsx";
import { toast } from "../../lib/toasts.ts";
import { Form } from "../../components/form.tsx";

/** Marks anyone's app verified (or not) by its client ID: the consent page shows the mark. */
export function VerifyAppSection() {
  const [clientId, setClientId] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState<"on" | "off" | null>(null);

  const mark = async (verified: boolean) => {
    if (!clientId.trim()) return setError("Enter the app's client ID.");
    setBusy(verified ? "on" : "off");
    setError(null);
    try {
      const app = await appsApi.setVerified(clientId.trim(), verified);
      toast(verified ? `${app.name} is marked verified.` : `${app.name} is no longer marked verified.`, "success");
      setClientId("");
    } catch (e) {
      setError((e as Error).message);
    } finally {
      setBusy(null);
    }
  };

  return (
    <Card id="verify-app" title="Verified apps">
      <p class="muted">
        People are told an app is unverified when it asks for their permission, until an admin marks it verified. Apps an admin registers start verified; mark
        others only when you know who runs them.
      </p>
      <Form onSubmit={() => void mark(true)}>
        <TextField label="Client ID" value={clientId} onValue={setClientId} autocomplete="off" error={error} />
        <div class="form-actions start">
          <Button type="submit" busy={busy === "on"} disabled={busy !== null}>
            Mark verified
          </Button>
          <Button variant="secondary" busy={busy === "off"} disabled={busy !== null} onClick={() => void mark(false)}>
            Remove mark
          </Button>
        </div>
      </Form>
    </Card>
  );
}
