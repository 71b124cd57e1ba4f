import type { JSX } from "preact";
import { useState } from "preact/hooks";
import { meApi, type TotpEnrolment } from "../../api/me.ts";
import { Button } from "../../components/button.tsx";
import { Card } from "../../components/card.tsx";
import { toast } from "../../lib/toasts.ts";
import { useLoad } from "../../lib/use-load.ts";
import { BackupCodes } from "./backup-codes.tsx";
import { ReauthDialog } from "./reauth-dialog.tsx";
import { TotpEnrol } from "./totp-enrol.tsx";

/** Two-factor authentication with an authenticator app, and its backup codes. */
export function TotpSection() {
  const status = useLoad(() => meApi.totpStatus());
  const [enrolment, setEnrolment] = useState<TotpEnrolment | null>(null);
  const [codes, setCodes] = useState<string[] | null>(null);
  const [dialog, setDialog] = useState<"regenerate" | "disable" | null>(null);
  const [starting, setStarting] = useState(false);

  const start = async () => {
    setStarting(true);
    try {
      setEnrolment(await meApi.beginTotp());
    } catch (e) {
      toast((e as Error).message, "error");
    } finally {
      setStarting(false);
    }
  };

  let body: JSX.Element;
  if (codes) body = <BackupCodes codes={codes} onDone={() => setCodes(null)} />;
  else if (enrolment)
    body = (
      <TotpEnrol
        enrolment={enrolment}
        onCancel={() => setEnrolment(null)}
        onConfirmed={(backup) => {
          setEnrolment(null);
          setCodes(backup);
          toast("Two-factor authentication is on.", "success");
          void status.reload();
        }}
      />
    );
  else if (!status.data) body = <p class={status.error ? "form-error" : "muted"}>{status.error ?? "Loading…"}</p>;
  else if (!status.data.enabled)
    body = (
      <>
        <p>
          <span class="badge">Off</span> Add a second step to signing in: a code from an authenticator app on your phone.
        </p>
        <Button busy={starting} onClick={() => void start()}>
          Set up authenticator app
        </Button>
      </>
    );
  else
    body = (
      <>
        <p>
          <span class="badge badge-success">On</span> Signing in with your password also asks for a code from your app.{" "}
          <span class={status.data.backup_codes_left < 3 ? "text-danger" : "muted"}>
            {status.data.backup_codes_left} backup code{status.data.backup_codes_left === 1 ? "" : "s"} left.
          </span>
        </p>
        <div class="form-actions start">
          <Button variant="secondary" onClick={() => setDialog("regenerate")}>
            New backup codes
          </Button>
          <Button variant="danger" onClick={() => setDialog("disable")}>
            Turn off
          </Button>
        </div>
      </>
    );

  return (
    <Card id="two-factor" title="Two-factor authentication">
      {body}
      <ReauthDialog
        open={dialog === "regenerate"}
        title="New backup codes"
        confirmLabel="Make new codes"
        onClose={() => setDialog(null)}
        onConfirm={async (proof) => {
          setCodes(await meApi.regenerateBackupCodes(proof));
          void status.reload();
        }}
      />
      <ReauthDialog
        open={dialog === "disable"}
        title="Turn off two-factor authentication?"
        confirmLabel="Turn off"
        danger
        onClose={() => setDialog(null)}
        onConfirm={async (proof) => {
          await meApi.disableTotp(proof);
          toast("Two-factor authentication is off.", "success");
          void status.reload();
        }}
      />
    </Card>
  );
}
