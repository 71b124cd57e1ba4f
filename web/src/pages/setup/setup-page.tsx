import { useEffect, useState } from "preact/hooks";
import { authApi, type User } from "../../api/auth.ts";
import { ApiError } from "../../api/http.ts";
import { initApi } from "../../api/init.ts";
import { type TeamSummary, teamsApi } from "../../api/teams.ts";
import { Button } from "../../components/button.tsx";
import { Card } from "../../components/card.tsx";
import { EmptyState } from "../../components/empty-state.tsx";
import { toast } from "../../lib/toasts.ts";
import { loadSession, signedIn } from "../../lib/session.ts";
import { type AccountErrors, type AccountForm, accountErrorFrom, EMPTY_ACCOUNT, validateAccount } from "../auth/account-form.ts";
import { AdminStep } from "./admin-step.tsx";
import { type FormErrors, initialForm, type SetupForm, toSetupConfig, validateIdp } from "./setup-form.ts";
import { AccessStep, IdentityStep, ReviewStep } from "./setup-steps.tsx";
import { Form } from "../../components/form.tsx";

const STEPS = ["Administrator", "Identity provider", "Access", "Review"] as const;

type State = { phase: "loading" } | { phase: "configured" } | { phase: "wizard"; locked: string[] } | { phase: "done" };

/** The first-run wizard: creates the admin account, then drives /api/init to a configured instance. */
export function SetupPage() {
  const [state, setState] = useState<State>({ phase: "loading" });
  const [form, setForm] = useState<SetupForm | null>(null);
  const [step, setStep] = useState(0);
  const [errors, setErrors] = useState<FormErrors>({});
  const [busy, setBusy] = useState(false);
  const [needsToken, setNeedsToken] = useState(false);
  const [admin, setAdmin] = useState<User | null>(null);
  const [account, setAccount] = useState<AccountForm>(EMPTY_ACCOUNT);
  const [accountErrors, setAccountErrors] = useState<AccountErrors>({});
  const [blocked, setBlocked] = useState<string | null>(null);
  const [teams, setTeams] = useState<TeamSummary[] | null>(null);

  // The access step picks among the administrator's own teams (this instance as the IdP).
  useEffect(() => {
    if (step >= 2 && admin && teams === null) teamsApi.list().then(setTeams, (e: Error) => toast(e.message, "error"));
  }, [step, admin]);
  const createTeam = async (name: string) => {
    const team = await teamsApi.createOwned(name);
    setTeams([...(teams ?? []), team]);
    return team;
  };

  useEffect(() => {
    (async () => {
      if (await initApi.status()) return setState({ phase: "configured" });
      const [{ config, locked }, user] = await Promise.all([initApi.config(), loadSession()]);
      if (user?.role === "admin") setAdmin(user);
      setForm(initialForm(config));
      setState({ phase: "wizard", locked });
    })().catch((e: Error) => toast(e.message, "error"));
  }, []);

  if (state.phase === "loading" || (state.phase === "wizard" && !form)) return <p class="muted">Loading…</p>;
  if (state.phase === "configured")
    return (
      <EmptyState
        title="Already configured"
        action={
          <a class="btn btn-secondary" href="/settings">
            Open the settings
          </a>
        }
      >
        This instance has been set up. Its owners change the configuration under Settings → Workspace connection.
      </EmptyState>
    );
  if (state.phase === "done")
    return (
      <Card
        title="Cairn is ready"
        footer={
          <a class="btn btn-primary" href="/">
            Continue
          </a>
        }
      >
        <p>Setup is complete. The workspace now signs in through the identity provider you chose, and you are signed in as its administrator.</p>
      </Card>
    );

  const current = form as SetupForm;
  const set = <K extends keyof SetupForm>(key: K, value: SetupForm[K]) => {
    setForm({ ...current, [key]: value });
    setErrors({ ...errors, [key]: undefined });
  };
  const props = { form: current, errors, locked: state.locked, set };

  const createAdmin = async () => {
    const found = validateAccount(account);
    setAccountErrors(found);
    if (Object.keys(found).length) return;
    setBusy(true);
    try {
      const name = account.name.trim();
      const { user } = await authApi.register(
        { username: account.username.trim().toLowerCase(), email: account.email.trim(), password: account.password, ...(name ? { name } : {}) },
        current.setup_token,
      );
      signedIn(user);
      if (user.role !== "admin") return setBlocked("Your account was created, but as a regular user: this instance already has an administrator.");
      setAdmin(user);
      setStep(1);
    } catch (e) {
      if (e instanceof ApiError && e.status === 401) {
        setNeedsToken(true);
        setErrors({ setup_token: current.setup_token ? "That setup token is not right." : "This server asks for its setup token." });
      } else if (e instanceof ApiError && (e.error === "forbidden" || e.status === 409) && !/Cross-site/.test(e.message))
        setBlocked(e.message); // only an instance with users refuses or conflicts
      else setAccountErrors(accountErrorFrom(e));
    } finally {
      setBusy(false);
    }
  };

  const next = () => {
    if (step === 0) return admin ? setStep(1) : void createAdmin();
    const found = step === 1 ? validateIdp(current) : {};
    setErrors(found);
    if (Object.keys(found).length === 0) setStep(step + 1);
  };

  const finish = async () => {
    setBusy(true);
    try {
      await initApi.setup(toSetupConfig(current, state.locked), current.setup_token);
      setState({ phase: "done" });
    } catch (e) {
      if (e instanceof ApiError && e.status === 401) {
        setNeedsToken(true);
        setErrors({ setup_token: current.setup_token ? "That setup token is not right." : "This server asks for its setup token." });
      } else if (e instanceof ApiError && e.error === "Already configured") {
        setState({ phase: "configured" });
      } else toast((e as Error).message, "error");
    } finally {
      setBusy(false);
    }
  };

  const submitLabel = step === 0 ? (admin ? "Next" : blocked ? null : "Create account") : step < STEPS.length - 1 ? "Next" : "Finish setup";
  return (
    <div class="wizard">
      <ol class="steps" aria-label="Setup progress">
        {STEPS.map((name, i) => (
          <li key={name} class={i === step ? "current" : i < step ? "done" : ""} aria-current={i === step ? "step" : undefined}>
            {name}
          </li>
        ))}
      </ol>
      <Form onSubmit={() => (step < STEPS.length - 1 ? next() : void finish())}>
        <Card
          title={step === 0 ? "Welcome to Cairn" : STEPS[step]}
          footer={
            <>
              {step > 0 ? (
                <Button variant="secondary" onClick={() => setStep(step - 1)} disabled={busy}>
                  Back
                </Button>
              ) : null}
              {submitLabel ? (
                <Button type="submit" busy={busy}>
                  {submitLabel}
                </Button>
              ) : null}
            </>
          }
        >
          {step === 0 ? (
            <AdminStep
              admin={admin}
              blocked={blocked}
              account={account}
              errors={accountErrors}
              setAccount={(key, value) => {
                setAccount({ ...account, [key]: value });
                setAccountErrors({ ...accountErrors, [key]: undefined, form: undefined });
              }}
              needsToken={needsToken}
              token={current.setup_token}
              tokenError={errors.setup_token}
              setToken={(v) => set("setup_token", v)}
            />
          ) : step === 1 ? (
            <IdentityStep {...props} />
          ) : step === 2 ? (
            <AccessStep {...props} teams={teams} createTeam={createTeam} />
          ) : (
            <ReviewStep {...props} needsToken={needsToken} teams={teams} />
          )}
        </Card>
      </Form>
    </div>
  );
}
