import { useRequiredUser } from "../../lib/session.ts";
import { AuthorizedAppsSection } from "./authorized-apps-section.tsx";
import { DomainsSection } from "./domains-section.tsx";
import { GpgKeysSection } from "./gpg-keys-section.tsx";
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
  ["sessions", "Sessions"],
  ["remembered-confirmations", "Remembered confirmations"],
  ["tokens", "Access tokens"],
  ["domains", "Domains"],
  ["gpg-keys", "GPG keys"],
  ["authorized-apps", "Authorized apps"],
] as const;

/** The signed-in user's own settings: profile, sign-in methods, sessions, tokens and authorized apps. */
export function AccountPage() {
  const user = useRequiredUser();
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
      <PasswordSection />
      <TotpSection />
      <PasskeysSection />
      <SessionsSection />
      <SudoWindowsSection />
      <TokensSection isAdmin={user.role === "admin"} />
      <DomainsSection />
      <GpgKeysSection />
      <AuthorizedAppsSection />
    </div>
  );
}
