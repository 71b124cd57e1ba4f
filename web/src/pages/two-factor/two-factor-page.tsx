import { useState } from "preact/hooks";
import { useLocation } from "preact-iso";
import { ApiError } from "../../api/http.ts";
import { type ChallengeInfo, twoFactorApi } from "../../api/two-factor.ts";
import { Button } from "../../components/button.tsx";
import { Card } from "../../components/card.tsx";
import { EmptyState } from "../../components/empty-state.tsx";
import { FormError } from "../../components/form-error.tsx";
import { useRequiredUser } from "../../lib/session.ts";
import { useLoad } from "../../lib/use-load.ts";
import { ConfirmForm } from "./confirm-form.tsx";

/** The app's access_denied redirect of a request that expired unanswered (410). */
type Expired = { kind: "expired"; redirect_to: string; client_name: string | null };
type Loaded = ChallengeInfo | Expired | "gone" | "no-factor" | undefined;

/** A signed-in user without TOTP or a passkey: told what to set up, and able to send the app a refusal. */
function NoSecondFactor({ challengeId, state }: { challengeId: string; state: string | undefined }) {
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const cancel = async () => {
    setBusy(true);
    try {
      location.assign((await twoFactorApi.answer({ challenge_id: challengeId, state, decision: "reject" })).redirect_to);
    } catch (e) {
      setError((e as Error).message);
      setBusy(false);
    }
  };
  return (
    <div class="narrow">
      <Card title="A second factor is needed">
        <p>
          An application asks you to confirm an action with a second factor, and your account has none yet. Add an authenticator app or a passkey on your
          account page, then start the action again in the application.
        </p>
        <FormError message={error} />
        <div class="form-actions start">
          <a class="btn btn-primary" href="/account#two-factor">
            Set up a second factor
          </a>
          <Button variant="secondary" busy={busy} onClick={() => void cancel()}>
            Cancel and return to the application
          </Button>
        </div>
      </Card>
    </div>
  );
}

/**
 * `/2fa?challenge_id=&state=`: an application asks the signed-in user to re-confirm one action
 * (spec 1 section 3.3). The app, its verified badge and the action text exactly as the app gave
 * it; a confirmation box that is always required; then a second factor, or nothing more while a
 * remembered confirmation (sudo window) for this app on this device lasts.
 */
export function TwoFactorPage() {
  const { query } = useLocation();
  const id = query.challenge_id ?? "";
  return id ? <ChallengePage id={id} state={query.state} /> : <NoRequest />;
}

/** Opened by hand (a bookmark, a link without its request): nothing has expired, there is just nothing to confirm. */
function NoRequest() {
  return (
    <EmptyState
      title="No confirmation request"
      action={
        <a class="btn btn-secondary" href="/">
          Go to the home page
        </a>
      }
    >
      This page is opened by an app asking you to confirm an action with your second factor. Start the action in the app, and it brings you here with its
      request.
    </EmptyState>
  );
}

function ChallengePage({ id, state }: { id: string; state: string | undefined }) {
  const user = useRequiredUser();
  const loaded = useLoad(async (): Promise<Loaded> => {
    if (!user) return undefined;
    try {
      return await twoFactorApi.info(id, state);
    } catch (e) {
      if (e instanceof ApiError && e.status === 410 && typeof e.body?.redirect_to === "string")
        return { kind: "expired", redirect_to: e.body.redirect_to, client_name: (e.body.client_name as string | null) ?? null };
      if (e instanceof ApiError && e.status === 404) return "gone";
      if (e instanceof ApiError && e.status === 403) return "no-factor";
      throw e;
    }
  }, [id, state, user?.id]);
  const gone = (
    <EmptyState
      title="This confirmation request has expired"
      action={
        <a class="btn btn-secondary" href="/">
          Go to the home page
        </a>
      }
    >
      A confirmation request lasts ten minutes and can be answered once. Go back to the application and start the action again.
    </EmptyState>
  );
  if (!user || (loaded.loading && loaded.data === undefined)) return <p class="muted">Loading…</p>;
  if (loaded.data === "gone") return gone;
  if (loaded.data === "no-factor") return <NoSecondFactor challengeId={id} state={state} />;
  if (loaded.data && "kind" in loaded.data)
    return (
      <EmptyState
        title="This confirmation request has expired"
        action={
          <a class="btn btn-primary" href={loaded.data.redirect_to}>
            Back to {loaded.data.client_name ?? "the application"}
          </a>
        }
      >
        A confirmation request lasts ten minutes. Go back to the application and start the action again.
      </EmptyState>
    );
  if (!loaded.data) return <EmptyState title="This request could not be loaded">{loaded.error}</EmptyState>;
  const info = loaded.data;
  return (
    <div class="narrow">
      <Card
        title={`Confirm an action for ${info.client.name}`}
        actions={info.client.is_verified ? <span class="badge badge-success">Verified app</span> : null}
      >
        <ConfirmForm challengeId={id} state={state} info={info} username={user.username} onStale={() => void loaded.reload()} />
      </Card>
    </div>
  );
}
