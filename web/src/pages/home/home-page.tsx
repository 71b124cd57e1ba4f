import { useEffect, useState } from "preact/hooks";
import { useLocation } from "preact-iso";
import { initApi } from "../../api/init.ts";
import { Card } from "../../components/card.tsx";
import { toast } from "../../lib/toasts.ts";
import { currentUser } from "../../lib/session.ts";
import { BY_INVITATION, useRegistration } from "../../lib/use-registration.ts";

/** The landing page: a fresh instance sends its first visitor to the setup wizard. */
export function HomePage() {
  const { route } = useLocation();
  const [configured, setConfigured] = useState<boolean | null>(null);
  useEffect(() => {
    initApi.status().then(
      (done) => (done ? setConfigured(true) : route("/setup", true)),
      (e: Error) => toast(e.message, "error"),
    );
  }, []);
  const user = currentUser.value;
  // Offered only when anyone may make an account (the site setting `registration`).
  const registration = useRegistration(user === null);
  if (configured === null || user === undefined) return <p class="muted">Loading…</p>;
  if (user === null)
    return (
      <Card
        title="Welcome to Cairn"
        footer={
          <>
            {registration === "open" ? (
              <a class="btn btn-secondary" href="/register">
                Create an account
              </a>
            ) : null}
            <a class="btn btn-primary" href="/login">
              Sign in
            </a>
          </>
        }
      >
        <p>Single sign-on for your household or team, and a shared todo workspace. Sign in to manage your account and teams.</p>
        {registration === "invite" ? <p class="muted">{BY_INVITATION}</p> : null}
      </Card>
    );
  return (
    <div class="page">
      <header class="page-head">
        <h1>Welcome, {user.name || user.username}</h1>
        <p class="muted">You are signed in to Cairn.</p>
      </header>
      <ul class="tiles" aria-label="Where to go">
        <li>
          <a class="tile" href="/w">
            <strong>Workspace</strong>
            <span>Shared todo sets for your teams and yourself, live in every open window.</span>
          </a>
        </li>
        <li>
          <a class="tile" href="/account">
            <strong>Your account</strong>
            <span>Profile, password, two-factor, passkeys, sessions, access tokens and authorized apps.</span>
          </a>
        </li>
        <li>
          <a class="tile" href="/teams">
            <strong>Teams</strong>
            <span>Your teams and sub-teams, their members and groups.</span>
          </a>
        </li>
        <li>
          <a class="tile" href="/apps">
            <strong>My apps</strong>
            <span>Apps you registered to let people sign in with this site.</span>
          </a>
        </li>
        {user.role === "admin" ? (
          <li>
            <a class="tile" href="/admin">
              <strong>Administration</strong>
              <span>Users, invitations, site settings and the audit log.</span>
            </a>
          </li>
        ) : null}
        <li>
          <a class="tile" href="/settings">
            <strong>Workspace connection</strong>
            <span>Where the workspace signs people in and who may use it (for the owners of this instance).</span>
          </a>
        </li>
      </ul>
    </div>
  );
}
