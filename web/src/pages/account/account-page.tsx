import { socialApi } from "../../api/social.ts";
import { useRequiredUser } from "../../lib/session.ts";
import { useLoad } from "../../lib/use-load.ts";
import { AuthorizedAppsSection } from "./authorized-apps-section.tsx";
import { DeleteAccountSection } from "./delete-account-section.tsx";
import { DomainsSection } from "./domains-section.tsx";
import { GpgKeysSection } from "./gpg-keys-section.tsx";
import { LinkedAccountsSection } from "./linked-accounts-section.tsx";
import { PasskeysSection } from "./passkeys-section.tsx";
import { PasswordSection } from "./password-section.tsx";
import { ProfileSection } from "./profile-section.tsx";
import { SessionsSection } from "./sessions-section.tsx";
import { SudoWindowsSection } from "./sudo-windows-section.tsx";
import { TokensSection } from "./tokens-section.tsx";
import { TotpSection } from "./totp-section.tsx";

const SECTIONS = [
  ["profile", "Profile"],
  ["password", "Password"],
  ["two-factor", "Two-factor"],
  ["passkeys", "Passkeys"],
  ["linked-accounts", "Linked accounts"],
  ["sessions", "Sessions"],
  ["remembered-confirmations", "Remembered confirmations"],
  ["tokens", "Access tokens"],
  ["domains", "Domains"],
  ["gpg-keys", "GPG keys"],
  ["authorized-apps", "Authorized apps"],
  ["delete-account", "Delete account"],
] as const;

/** The signed-in user's own settings: profile, sign-in methods, sessions, tokens, authorized apps, and deleting the account. */
export function AccountPage() {
  const user = useRequiredUser();
  // Whether there is a password, and the linked accounts: the password and linked sections share it.
  const linked = useLoad(() => socialApi.linked());
  if (!user) return <p class="muted">Loading…</p>;
  return (
    <div class="page">
      <header class="page-head">
        <h1>Your account</h1>
        <p class="muted">
          Signed in as <strong>{user.username}</strong>
          {user.role === "admin" ? " (administrator)" : ""}.
        </p>
      </header>
      <nav class="page-nav" aria-label="Account sections">
        {SECTIONS.map(([id, label]) => (
          <a key={id} href={`#${id}`}>
            {label}
          </a>
        ))}
      </nav>
      <ProfileSection user={user} />
      <PasswordSection hasPassword={linked.data?.has_password ?? true} onSet={() => void linked.reload()} />
      <TotpSection />
      <PasskeysSection />
      <LinkedAccountsSection linked={linked} />
      <SessionsSection />
      <SudoWindowsSection />
      <TokensSection isAdmin={user.role === "admin"} />
      <DomainsSection />
      <GpgKeysSection />
      <AuthorizedAppsSection />
      <DeleteAccountSection hasPassword={linked.data?.has_password ?? true} />
    </div>
  );
}
