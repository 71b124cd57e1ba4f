import { useEffect, useState } from "preact/hooks";
import { ApiError } from "../../api/http.ts";
import { initApi } from "../../api/init.ts";
import { Button } from "../../components/button.tsx";
import { Card } from "../../components/card.tsx";
import { EmptyState } from "../../components/empty-state.tsx";
import { toast } from "../../components/toast.tsx";
import { type FormErrors, initialForm, type SetupForm, toSetupConfig, validateIdp } from "./setup-form.ts";
import { AccessStep, IdentityStep, ReviewStep, WelcomeStep } from "./setup-steps.tsx";

const STEPS = ["Welcome", "Identity provider", "Access", "Review"] as const;

type State = { phase: "loading" } | { phase: "configured" } | { phase: "wizard"; locked: string[] } | { phase: "done" };

/** The first-run wizard: drives /api/init and ends with a configured instance. */
export function SetupPage() {
  const [state, setState] = useState<State>({ phase: "loading" });
  const [form, setForm] = useState<SetupForm | null>(null);
  const [step, setStep] = useState(0);
  const [errors, setErrors] = useState<FormErrors>({});
  const [busy, setBusy] = useState(false);
  const [needsToken, setNeedsToken] = useState(false);

  useEffect(() => {
    (async () => {
      if (await initApi.status()) return setState({ phase: "configured" });
      const { config, locked } = await initApi.config();
      setForm(initialForm(config));
      setState({ phase: "wizard", locked });
    })().catch((e: Error) => toast(e.message, "error"));
  }, []);

  if (state.phase === "loading" || (state.phase === "wizard" && !form)) return <p class="muted">Loading…</p>;
  if (state.phase === "configured")
    return <EmptyState title="Already configured" action={<a class="btn btn-secondary" href="/">Go home</a>}>This instance has been set up. Its owners can change the configuration in the settings.</EmptyState>;
  if (state.phase === "done")
    return (
      <Card title="Cairn is ready" footer={<a class="btn btn-primary" href="/">Continue</a>}>
        <p>Setup is complete. The workspace now signs in through the identity provider you chose.</p>
      </Card>
    );

  const current = form as SetupForm;
  const set = <K extends keyof SetupForm>(key: K, value: SetupForm[K]) => {
    setForm({ ...current, [key]: value });
    setErrors({ ...errors, [key]: undefined });
  };
  const props = { form: current, errors, locked: state.locked, set };

  const next = () => {
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

  return (
    <div class="wizard">
      <ol class="steps" aria-label="Setup progress">
        {STEPS.map((name, i) => (
          <li key={name} class={i === step ? "current" : i < step ? "done" : ""} aria-current={i === step ? "step" : undefined}>
            {name}
          </li>
        ))}
      </ol>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          step < STEPS.length - 1 ? next() : void finish();
        }}
        noValidate
      >
        <Card
          title={step === 0 ? "Welcome to Cairn" : STEPS[step]}
          footer={
            <>
              {step > 0 ? (
                <Button variant="secondary" onClick={() => setStep(step - 1)} disabled={busy}>
                  Back
                </Button>
              ) : null}
              <Button type="submit" busy={busy}>
                {step === 0 ? "Get started" : step < STEPS.length - 1 ? "Next" : "Finish setup"}
              </Button>
            </>
          }
        >
          {step === 0 ? <WelcomeStep /> : step === 1 ? <IdentityStep {...props} /> : step === 2 ? <AccessStep {...props} /> : <ReviewStep {...props} needsToken={needsToken} />}
        </Card>
      </form>
    </div>
  );
}
