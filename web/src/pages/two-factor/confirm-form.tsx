import { useState } from "preact/hooks";
import { ApiError } from "../../api/http.ts";
import { type ChallengeInfo, type ConfirmAnswer, type ConfirmBody, type ConfirmMethod, twoFactorApi } from "../../api/two-factor.ts";
import { Button } from "../../components/button.tsx";
import { Choices } from "../../components/choices.tsx";
import { Checkbox, TextField } from "../../components/field.tsx";
import { Form } from "../../components/form.tsx";
import { FormError } from "../../components/form-error.tsx";
import { formatTime } from "../../lib/format.ts";
import { getPasskey, passkeyErrorMessage } from "../../lib/webauthn.ts";
import { type CaptchaSolution, ProofOfWork, ThirdPartyCaptcha } from "./captcha.tsx";
import { Leaving } from "./leaving.tsx";

const LABELS: Record<ConfirmMethod, { title: string; help: string }> = {
  sudo: { title: "Confirm without a code", help: "You confirmed with a second factor for this app on this device a little while ago." },
  totp: { title: "Authenticator app", help: "Enter the 6-digit code your app shows now." },
  passkey: { title: "Passkey", help: "Use a passkey saved on this device or a security key." },
  backup: { title: "Backup code", help: "Each backup code works once." },
};

type Props = {
  challengeId: string;
  state: string | undefined;
  info: ChallengeInfo;
  username: string;
  /** Asks the page for fresh info: a spent captcha answer needs a new puzzle. */
  onStale: () => void;
};

/** The confirmation itself: the action, the box, the factor (or the remembered confirmation), the captcha, and the answer. */
export function ConfirmForm({ challengeId, state, info, username, onStale }: Props) {
  const methods: ConfirmMethod[] = [...(info.sudo_available ? (["sudo"] as const) : []), ...info.methods];
  const [method, setMethod] = useState<ConfirmMethod>(methods[0] ?? "totp");
  const [confirmed, setConfirmed] = useState(false);
  const [code, setCode] = useState("");
  const [remember, setRemember] = useState(false);
  const [captcha, setCaptcha] = useState<CaptchaSolution | null>(null);
  // Bumped to draw a fresh third-party widget once its token was spent.
  const [widget, setWidget] = useState(0);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState<"approve" | "reject" | null>(null);
  const [answer, setAnswer] = useState<ConfirmAnswer | null>(null);

  const needsCaptcha = info.captcha_required && method !== "sudo";
  const canRemember = info.sudo_ttl_minutes > 0 && (method === "totp" || method === "passkey");

  const send = async (decision: "approve" | "reject", extra: () => Promise<Partial<ConfirmBody>>) => {
    setBusy(decision);
    setError(null);
    try {
      const answer = await twoFactorApi.answer({ challenge_id: challengeId, state, decision, ...(await extra()) });
      // A rejection is the user's own choice: straight back to the app, nothing to read here.
      if (decision === "reject") location.assign(answer.redirect_to);
      else setAnswer(answer);
    } catch (e) {
      setError(e instanceof ApiError ? e.message : passkeyErrorMessage(e));
      setBusy(null);
      // The server may have spent the captcha answer (each counts once): solve a new one.
      if (captcha && e instanceof ApiError) {
        setCaptcha(null);
        setWidget((n) => n + 1);
        onStale();
      }
    }
  };

  const approve = () => {
    if (!confirmed) return setError("Tick the box to confirm the action first.");
    if (needsCaptcha && !captcha) return setError("Wait for the browser check to finish.");
    const value = code.trim();
    if ((method === "totp" || method === "backup") && !value) return setError(method === "totp" ? "Enter the code from your app." : "Enter a backup code.");
    return send("approve", async () => {
      const body: Partial<ConfirmBody> = { confirmed: true, method, ...(needsCaptcha && captcha ? captcha : {}) };
      if (canRemember && remember) body.remember_sudo = true;
      if (method === "totp") body.code = value.replace(/\s/g, "");
      if (method === "backup") body.code = value;
      if (method === "passkey") {
        const { challenge_id, options } = await twoFactorApi.passkeyOptions(challengeId);
        body.passkey = { challenge_id, response: await getPasskey(options) };
      }
      return body;
    });
  };

  if (answer) return <Leaving answer={answer} app={info.client.name} />;
  return (
    <Form onSubmit={() => void approve()}>
      <p>
        <strong>{info.client.name}</strong> asks you, <strong>{username}</strong>, to confirm this action:
      </p>
      <blockquote class="action-text" data-testid="action-text">
        {info.action === "" ? <em class="muted">(the application did not describe it)</em> : info.action}
      </blockquote>
      {info.client.is_verified ? null : (
        <div class="notice notice-warning" role="note">
          <p>
            <strong>Unverified app.</strong> Confirm only if you just started this action in {info.client.name} yourself.
          </p>
        </div>
      )}
      <Checkbox label="Yes, I want to do this" checked={confirmed} onChange={setConfirmed} />
      {methods.length > 1 ? (
        <Choices
          legend="Confirm with"
          name="confirm-method"
          options={methods}
          value={method}
          describe={(m) => ({
            title: LABELS[m].title,
            help: m === "sudo" && info.sudo_expires_at ? `Remembered on this device until ${formatTime(info.sudo_expires_at * 1000)}.` : LABELS[m].help,
          })}
          onValue={(m) => {
            setMethod(m);
            setCode("");
            setError(null);
          }}
        />
      ) : (
        <p class="muted">{LABELS[method].help}</p>
      )}
      {method === "totp" ? <TextField label="Authentication code" value={code} onValue={setCode} autocomplete="one-time-code" inputMode="numeric" /> : null}
      {method === "backup" ? <TextField label="Backup code" value={code} onValue={setCode} autocomplete="one-time-code" /> : null}
      {canRemember ? (
        <Checkbox
          label={`Don't ask again for ${info.sudo_ttl_minutes} minutes on this device for ${info.client.name}`}
          hint="Later confirmations for this app skip the code (the box above is still asked). You can end this on your account page."
          checked={remember}
          onChange={setRemember}
        />
      ) : null}
      {needsCaptcha && info.captcha_provider === "pow" && info.pow ? <ProofOfWork pow={info.pow} onSolved={setCaptcha} /> : null}
      {needsCaptcha && info.captcha_provider !== "pow" && info.captcha_provider !== "none" ? (
        info.captcha_site_key ? (
          <ThirdPartyCaptcha key={widget} provider={info.captcha_provider} siteKey={info.captcha_site_key} onSolved={setCaptcha} />
        ) : (
          <p class="form-error">The captcha of this site is not set up. Ask an administrator.</p>
        )
      ) : null}
      <p class="muted">This request expires at {formatTime(info.expires_at * 1000)}.</p>
      <FormError message={error} />
      <div class="form-actions">
        <Button variant="secondary" busy={busy === "reject"} disabled={busy !== null} onClick={() => void send("reject", async () => ({}))}>
          Reject
        </Button>
        <Button type="submit" busy={busy === "approve"} disabled={busy !== null || !confirmed || (needsCaptcha && !captcha)}>
          Confirm
        </Button>
      </div>
    </Form>
  );
}
