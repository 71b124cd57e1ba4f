import { useEffect, useState } from "preact/hooks";
import { useLocation } from "preact-iso";
import { type DeviceRequest, deviceApi } from "../../api/apps.ts";
import { ApiError } from "../../api/http.ts";
import { Button } from "../../components/button.tsx";
import { Card } from "../../components/card.tsx";
import { TextField } from "../../components/field.tsx";
import { Form } from "../../components/form.tsx";
import { FormError } from "../../components/form-error.tsx";
import { useRequiredUser } from "../../lib/session.ts";
import { ScopeList } from "../consent/scope-list.tsx";

type Step = { kind: "enter" } | { kind: "confirm"; request: DeviceRequest } | { kind: "done"; approved: boolean; app: string };

const refusal = (e: unknown) =>
  e instanceof ApiError && e.status === 404
    ? "No waiting request has this code. Check it on the device's screen; a code lasts 10 minutes and works once."
    : e instanceof ApiError && e.status === 429
      ? "Too many codes tried. Wait a minute, then try again."
      : (e as Error).message;

/**
 * RFC 8628 section 3.3: a person signs in a TV, a CLI or another device by entering the code it
 * shows (or opening its `verification_uri_complete`, which fills it in), sees the app and what
 * it asks for, and approves or denies.
 */
export function DevicePage() {
  const user = useRequiredUser();
  const { query } = useLocation();
  const [code, setCode] = useState(query.user_code ?? "");
  const [step, setStep] = useState<Step>({ kind: "enter" });
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState<"lookup" | "approve" | "deny" | null>(null);

  const lookup = async (typed: string) => {
    setError(null);
    setBusy("lookup");
    try {
      setStep({ kind: "confirm", request: await deviceApi.lookup(typed.trim()) });
    } catch (e) {
      setError(refusal(e));
    } finally {
      setBusy(null);
    }
  };
  // A code from the device's link: shown for confirmation straight away, never approved unasked.
  useEffect(() => {
    if (user && query.user_code) void lookup(query.user_code);
  }, [user?.id]);

  const decide = async (request: DeviceRequest, decision: "approve" | "deny") => {
    setError(null);
    setBusy(decision);
    try {
      await deviceApi.decide(request.user_code, decision);
      setStep({ kind: "done", approved: decision === "approve", app: request.client.name });
    } catch (e) {
      setError(refusal(e));
    } finally {
      setBusy(null);
    }
  };

  if (!user) return <p class="muted">Loading…</p>;
  if (step.kind === "done")
    return (
      <div class="narrow">
        <Card title={step.approved ? "Device connected" : "Request denied"}>
          <p role="status">
            {step.approved
              ? `${step.app} is signed in as ${user.username}. You can go back to your device.`
              : `${step.app} was not allowed to use your account.`}
          </p>
        </Card>
      </div>
    );
  if (step.kind === "confirm") {
    const { request } = step;
    return (
      <div class="narrow">
        <Card
          title={`Allow ${request.client.name} on your device?`}
          actions={request.client.is_verified ? <span class="badge badge-success">Verified app</span> : null}
        >
          <p>
            Code <strong class="mono">{request.user_code}</strong>: make sure it is the one your device shows.
          </p>
          {request.client.is_verified ? null : (
            <div class="notice notice-warning" role="note">
              <p>
                <strong>Unverified app.</strong> The administrators of this site have not checked who runs it. Allow it only if you started this on your own
                device.
              </p>
            </div>
          )}
          <p class="muted">
            You are signed in as <strong>{user.username}</strong>. If you allow it, {request.client.name} will be able to:
          </p>
          <ScopeList scopes={request.scopes} label="What the app will be able to do" />
          <FormError message={error} />
          <div class="form-actions">
            <Button variant="secondary" busy={busy === "deny"} disabled={busy !== null} onClick={() => void decide(request, "deny")}>
              Deny
            </Button>
            <Button busy={busy === "approve"} disabled={busy !== null} onClick={() => void decide(request, "approve")}>
              Approve
            </Button>
          </div>
        </Card>
      </div>
    );
  }
  return (
    <div class="narrow">
      <Card title="Connect a device">
        <Form onSubmit={() => void lookup(code)}>
          <p class="muted">Enter the code your TV, command line or other device shows.</p>
          <TextField
            label="Code"
            value={code}
            onValue={setCode}
            placeholder="BCDF-GHJK"
            autocomplete="one-time-code"
            hint="Eight letters; dashes, spaces and case do not matter."
          />
          <FormError message={error} />
          <div class="form-actions start">
            <Button type="submit" busy={busy === "lookup"} disabled={busy !== null || code.trim() === ""}>
              Continue
            </Button>
          </div>
        </Form>
      </Card>
    </div>
  );
}
