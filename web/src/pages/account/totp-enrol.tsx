import QRCode from "qrcode";
import { useEffect, useState } from "preact/hooks";
import { meApi, type TotpEnrolment } from "../../api/me.ts";
import { Button } from "../../components/button.tsx";
import { CopyField } from "../../components/copy-field.tsx";
import { TextField } from "../../components/field.tsx";
import { Form } from "../../components/form.tsx";

type Props = { enrolment: TotpEnrolment; onConfirmed: (backupCodes: string[]) => void; onCancel: () => void };

/** Scanning the QR code (or typing the secret) and proving it with a first code. */
export function TotpEnrol({ enrolment, onConfirmed, onCancel }: Props) {
  const [qr, setQr] = useState<string | null>(null);
  const [code, setCode] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    QRCode.toString(enrolment.otpauth_uri, { type: "svg", margin: 2, errorCorrectionLevel: "M" }).then(
      (svg) => setQr(`data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`),
      () => setQr(null),
    );
  }, [enrolment.otpauth_uri]);

  const confirm = async () => {
    const value = code.replace(/\s/g, "");
    if (!/^\d{6}$/.test(value)) return setError("Enter the 6-digit code your app shows.");
    setBusy(true);
    try {
      onConfirmed(await meApi.confirmTotp(value));
    } catch (e) {
      setError((e as Error).message);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Form onSubmit={() => void confirm()}>
      <ol class="steps-list">
        <li>Scan this QR code with an authenticator app (such as Aegis, 2FAS, Google Authenticator or 1Password).</li>
        <li>Or type the secret key into the app by hand.</li>
        <li>Enter the 6-digit code the app then shows.</li>
      </ol>
      <div class="totp-setup">
        {qr ? (
          <img class="qr" src={qr} alt="QR code to add this account to an authenticator app" width={192} height={192} />
        ) : (
          <div class="qr qr-placeholder" aria-hidden="true" />
        )}
        <div class="grow">
          <CopyField label="Secret key" value={enrolment.secret} hint="Time-based (TOTP), 6 digits, 30 seconds." />
          <TextField label="Code from the app" value={code} onValue={setCode} autocomplete="one-time-code" inputMode="numeric" autoFocus error={error} />
        </div>
      </div>
      <div class="form-actions">
        <Button variant="secondary" onClick={onCancel} disabled={busy}>
          Cancel
        </Button>
        <Button type="submit" busy={busy}>
          Turn on
        </Button>
      </div>
    </Form>
  );
}
