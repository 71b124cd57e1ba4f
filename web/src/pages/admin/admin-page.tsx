import { EmptyState } from "../../components/empty-state.tsx";
import { useRequiredUser } from "../../lib/session.ts";
import { AdminAudit } from "./admin-audit.tsx";
import { DocsRenderersSection } from "./docs-renderers-section.tsx";
import { DocsSourcesSection } from "./docs-sources-section.tsx";
import { ForwardAuthSection } from "./forward-auth-section.tsx";
import { IdentityProvidersSection } from "./identity-providers-section.tsx";
import { InvitesSection } from "./invites-section.tsx";
import { MailSection } from "./mail-section.tsx";
import { SiteSettingsSection } from "./site-settings-section.tsx";
import { UsersSection } from "./users-section.tsx";
import { VerifyAppSection } from "./verify-app-section.tsx";

const SECTIONS = [
  ["users", "Users"],
  ["invites", "Invitations"],
  ["site-settings", "Site settings"],
  ["mail", "Mail"],
  ["sign-in-providers", "Sign-in providers"],
  ["verify-app", "Verified apps"],
  ["forward-auth", "Forward auth"],
  ["documentation", "Documentation"],
  ["admin-audit", "Audit log"],
] as const;

/** Site administration: people, invitations, settings and the audit log. Admins only. */
export function AdminPage() {
  const user = useRequiredUser();
  if (!user) return <p class="muted">Loading…</p>;
  if (user.role !== "admin")
    return (
      <EmptyState
        title="Admins only"
        action={
          <a class="btn btn-secondary" href="/account">
            Go to your account
          </a>
        }
      >
        This page is for the administrators of this site. Ask one if you need something changed.
      </EmptyState>
    );
  return (
    <div class="page">
      <header class="page-head">
        <h1>Administration</h1>
      </header>
      <nav class="page-nav" aria-label="Administration sections">
        {SECTIONS.map(([id, label]) => (
          <a key={id} href={`#${id}`}>
            {label}
          </a>
        ))}
      </nav>
      <UsersSection selfId={user.id} />
      <InvitesSection />
      <SiteSettingsSection />
      <MailSection />
      <IdentityProvidersSection />
      <VerifyAppSection />
      <ForwardAuthSection />
      <DocsSourcesSection />
      <DocsRenderersSection />
      <AdminAudit />
    </div>
  );
}
