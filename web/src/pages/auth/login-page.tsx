import { useEffect, useRef, useState } from "preact/hooks";
import { useLocation } from "preact-iso";
import { authApi, type SecondFactorMethod, type SignedIn } from "../../api/auth.ts";
import { ApiError } from "../../api/http.ts";
import { Button } from "../../components/button.tsx";
import { Card } from "../../components/card.tsx";
import { TextField } from "../../components/field.tsx";
import { continueTo, currentUser, forwardAuthReturn, safeReturnTo, signedIn } from "../../lib/session.ts";
import { BY_INVITATION, useRegistration } from "../../lib/use-registration.ts";
import { getPasskey, passkeyErrorMessage } from "../../lib/webauthn.ts";
import { MfaStep } from "./mfa-step.tsx";
import { Form } from "../../components/form.tsx";
import { FormError } from "../../components/form-error.tsx";
import { type ProviderButton, socialApi, socialStartUrl } from "../../api/social.ts";
import { interactionApi } from "../../api/apps.ts";

type Errors = { login?: string; password?: string; form?: string };

/** Six digits are an authenticator code; anything else is taken for a backup code. */
const factorOf = (text: string) => (/^\d{6}$/.test(text.replace(/\s/g, "")) ? { code: text.replace(/\s/g, "") } : { backup_code: text.trim() });

const FACTORS: SecondFactorMethod[] = ["totp", "passkey", "backup_code"];

/**
 * A sign-in at a linked provider that still needs the account's second factor comes back with
 * the one-use ticket in the fragment (`#mfa=...&methods=...`), which no server or Referer sees.
 */
function ticketFromFragment(): { token: string; methods: SecondFactorMethod[] } | null {
  const fragment = new URLSearchParams(window.location.hash.slice(1));
  const token = fragment.get("mfa");
  if (!token) return null;
  history.replaceState(null, "", window.location.pathname + window.location.search);
  const methods = (fragment.get("methods") ?? "").split(",").filter((m): m is SecondFactorMethod => FACTORS.includes(m as SecondFactorMethod));
  return { token, methods: methods.length ? methods : ["totp"] };
}

/** The app whose authorization request waits behind this sign-in, by its interaction's resume path. */
const INTERACTION = /^\/api\/oauth\/interaction\/([^/?#]+)\/resume$/;

/**
 * An app asked for a new sign-in (OIDC Core 3.1.2.1 `prompt=login` or an elapsed `max_age`) or
 * for a second factor (`acr_values=mfa`): the page stays up for a person already signed in, and
 * says which app asks (read from the request itself, never from the address).
 */
function useReauthentication(reason: "login" | "mfa" | null, returnTo: string) {
  const [appName, setAppName] = useState<string | null>(null);
  const user = currentUser.value;
  useEffect(() => {
    const id = INTERACTION.exec(returnTo)?.[1];
    if (reason === null || !user || !id) return;
    interactionApi.get(id).then(
      (found) => setAppName(found.client.name),
      () => setAppName(null),
    );
  }, [reason, user?.id, returnTo]);
  if (reason === null || (!user && reason === "login")) return null;
  const who = appName ? `“${appName}”` : "The app you came from";
  const text =
    reason === "mfa"
      ? `${who} needs two-step verification. Sign in${user ? " again" : ""} with your password and your second factor, or with a passkey.`
      : `${who} asks you to sign in again before it continues.`;
  return { title: user ? "Confirm it’s you" : "Sign in", text };
}

/** Sign-in: password (then a second factor when enrolled), a passkey alone, or a linked provider. */
export function LoginPage() {
  const { query, route } = useLocation();
  // A protected app's address (forward auth) goes back through Cairn's continue endpoint.
  const returnTo = safeReturnTo(query.return_to) ?? forwardAuthReturn(query.return_to) ?? "/";
  const reason = query.mfa === "required" ? "mfa" : query.prompt === "login" ? "login" : null;
  const reauth = useReauthentication(reason, returnTo);
  const [login, setLogin] = useState("");
  const [password, setPassword] = useState("");
  const [errors, setErrors] = useState<Errors>({});
  const [busy, setBusy] = useState<"password" | "passkey" | null>(null);
  const [mfa, setMfa] = useState<{ token: string; methods: SecondFactorMethod[] } | null>(ticketFromFragment);
  const [providers, setProviders] = useState<ProviderButton[]>([]);
  // New accounts are offered to someone signing in, not to someone asked to sign in again.
  const registration = useRegistration(reason === null);
  // Password sign-in paused after failures: the password with a second factor still passes.
  const [paused, setPaused] = useState(false);
  const [factor, setFactor] = useState("");
  const leaving = useRef(false);

  const done = (answer: SignedIn) => {
    leaving.current = true;
    signedIn(answer.user);
    continueTo(returnTo, route);
  };

  // Someone already signed in has nothing to do here, unless the app asked for a new sign-in.
  useEffect(() => {
    const user = currentUser.value;
    if (!user || leaving.current) return;
    if (reason === null) {
      leaving.current = true;
      continueTo(returnTo, route);
    } else setLogin((typed) => typed || user.username);
    // A protected app asks for a second factor because its cookie came from an older sign-in: this one may have had it.
    if (reason === "mfa" && forwardAuthReturn(query.return_to))
      authApi.session().then(
        ({ session }) => {
          if (session.acr !== "mfa" || leaving.current) return;
          leaving.current = true;
          continueTo(returnTo, route);
        },
        () => {},
      );
  }, [currentUser.value]);

  useEffect(() => {
    socialApi.providers().then(setProviders, () => setProviders([]));
  }, []);

  const withPassword = async () => {
    const found: Errors = {};
    if (!login.trim()) found.login = "Enter your username or email.";
    if (!password) found.password = "Enter your password.";
    setErrors(found);
    if (Object.keys(found).length) return;
    setBusy("password");
    try {
      const answer = await authApi.login(login.trim(), password, factor.trim() ? factorOf(factor) : undefined);
      if ("mfa_required" in answer) setMfa({ token: answer.mfa_token, methods: answer.methods });
      else done(answer);
    } catch (e) {
      // Offered only when a code would pass: the server says so, knowing what the account has.
      if (e instanceof ApiError && e.status === 429) setPaused(e.body?.second_factor_accepted === true);
      setErrors({ form: (e as Error).message });
    } finally {
      setBusy(null);
    }
  };

  const withPasskey = async () => {
    setBusy("passkey");
    setErrors({});
    try {
      const { challenge_id, options } = await authApi.passkeyOptions();
      const response = await getPasskey(options);
      done(await authApi.passkeyVerify({ challenge_id, response }));
    } catch (e) {
      setErrors({ form: e instanceof ApiError ? e.message : passkeyErrorMessage(e) });
    } finally {
      setBusy(null);
    }
  };

  if (mfa)
    return (
      <div class="narrow">
        <Card title="Two-step verification">
          <MfaStep
            token={mfa.token}
            methods={mfa.methods}
            onDone={done}
            onCancel={() => {
              setMfa(null);
              setPassword("");
            }}
          />
        </Card>
      </div>
    );

  return (
    <div class="narrow">
      <Card title={reauth?.title ?? "Sign in"}>
        {reauth ? <p class="notice">{reauth.text}</p> : null}
        <Form onSubmit={() => void withPassword()}>
          <TextField label="Username or email" value={login} onValue={setLogin} autocomplete="username webauthn" error={errors.login} autoFocus />
          <TextField label="Password" type="password" value={password} onValue={setPassword} autocomplete="current-password" error={errors.password} />
          {paused && <TextField label="Code from your authenticator app, or a backup code" value={factor} onValue={setFactor} autocomplete="one-time-code" />}
          <FormError message={errors.form} />
          <div class="block-actions">
            <Button type="submit" busy={busy === "password"} disabled={busy !== null}>
              Sign in
            </Button>
            {/* What was typed comes along, so it is not typed twice. */}
            <a href={`/forgot-password${login.trim() ? `?login=${encodeURIComponent(login.trim())}` : ""}`}>Forgot password?</a>
          </div>
        </Form>
        <div class="divider">
          <span>or</span>
        </div>
        <div class="block-actions">
          <Button variant="secondary" busy={busy === "passkey"} disabled={busy !== null} onClick={() => void withPasskey()}>
            Sign in with a passkey
          </Button>
          {providers.map((p) => (
            <a key={p.slug} class="btn btn-secondary" href={socialStartUrl(p.slug, returnTo)}>
              Sign in with {p.name}
            </a>
          ))}
        </div>
      </Card>
      {registration === "open" ? (
        <p class="muted center">
          No account yet? <a href="/register">Create one</a>.
        </p>
      ) : registration === "invite" ? (
        <p class="muted center">{BY_INVITATION}</p>
      ) : null}
    </div>
  );
}
