import { useState } from "preact/hooks";
import { useLocation } from "preact-iso";
import { endSessionApi } from "../../api/apps.ts";
import { Button } from "../../components/button.tsx";
import { Card } from "../../components/card.tsx";
import { FormError } from "../../components/form-error.tsx";
import { currentUser } from "../../lib/session.ts";

/**
 * OIDC RP-Initiated Logout: an app asked to sign the person out without proving it is theirs
 * (no valid id_token_hint), so they confirm here; `?done=1` says a sign-out is done.
 */
export function LogoutPage() {
  const { query } = useLocation();
  const user = currentUser.value;
  const [busy, setBusy] = useState<"out" | "stay" | null>(null);
  const [error, setError] = useState<string | null>(null);
  const params = { client_id: query.client_id, post_logout_redirect_uri: query.post_logout_redirect_uri, state: query.state };

  if (query.done)
    return (
      <div class="narrow">
        <Card title="You are signed out">
          <p role="status">You have been signed out of this site. You can close this page.</p>
          <a class="btn btn-secondary" href="/login">
            Sign in again
          </a>
        </Card>
      </div>
    );

  const signOut = async () => {
    setBusy("out");
    setError(null);
    try {
      // A full navigation: the app's own page, or the signed-out message here.
      location.assign(await endSessionApi.confirm(params));
    } catch (e) {
      setBusy(null);
      setError((e as Error).message);
    }
  };
  if (user === undefined) return <p class="muted">Loading…</p>;
  return (
    <div class="narrow">
      <Card title={user ? "Sign out?" : "You are not signed in"}>
        <p>
          {user ? (
            <>
              An app asked to sign you out. You are signed in as <strong>{user.username}</strong>.
            </>
          ) : (
            "There is no sign-in to end in this browser."
          )}
        </p>
        <FormError message={error} />
        <div class="form-actions">
          {user ? (
            <Button variant="secondary" busy={busy === "stay"} disabled={busy !== null} onClick={() => (setBusy("stay"), location.assign("/"))}>
              Stay signed in
            </Button>
          ) : null}
          <Button busy={busy === "out"} disabled={busy !== null} onClick={() => void signOut()}>
            {user ? "Sign out" : "Continue"}
          </Button>
        </div>
      </Card>
    </div>
  );
}
