import { CROSS_APP_SCOPE, type KNOWN_SCOPES } from "../../../src/contract/scopes.ts";

type Scope = (typeof KNOWN_SCOPES)[number];

/** What each scope lets an app do, in words for the person asked to allow it (spec 1 section 2.3). */
const SENTENCES: Record<Scope, string> = {
  openid: "Know who you are when you sign in to it",
  profile: "See your name, username and profile picture",
  "profile:write": "Change your name and profile picture",
  email: "See your email address and whether it is verified",
  offline_access: "Stay connected when you are not using it, until you revoke its access",
  "apps:read": "See the apps you registered",
  "apps:write": "Register, change and delete apps in your name",
  "teams:read": "See every team you belong to",
  "teams:write": "Change the settings and members of your teams",
  "teams:create": "Create teams in your name",
  "teams:delete": "Delete your teams",
  "team:read": "See one team you choose",
  "team:write": "Change the settings and members of one team you choose",
  "team:delete": "Delete one team you choose",
  "team:member:read": "See who is in one team you choose",
  "team:member:write": "Add, remove and change the roles of members of one team you choose",
  "team:member:profile:read": "See the profiles of the members of one team you choose",
  "domains:read": "See your custom domains",
  "domains:write": "Add and remove your custom domains",
  "gpg:read": "See your GPG public keys",
  "gpg:write": "Add and remove your GPG public keys",
  "social:read": "See the social accounts linked to yours",
  "social:write": "Disconnect social accounts linked to yours",
  "admin:users:read": "See every user account on this site",
  "admin:users:write": "Change any user account on this site",
  "admin:users:delete": "Delete user accounts on this site",
  "admin:config:read": "See this site's settings",
  "admin:config:write": "Change this site's settings",
  "admin:invites:read": "See this site's invitations",
  "admin:invites:create": "Invite people to this site",
  "admin:invites:delete": "Delete invitations to this site",
  "site:user:read": "See every user account on this site, across all teams",
  "site:user:write": "Change any user account on this site",
  "site:user:delete": "Delete any user account on this site",
  "site:team:read": "See every team on this site",
  "site:team:write": "Change any team on this site",
  "site:team:delete": "Delete any team on this site",
  "site:config:read": "See this site's configuration",
  "site:config:write": "Change this site's configuration",
  "site:token:revoke": "Revoke any user's app access on this site",
};

/**
 * The sentence for a scope, or the scope itself when unknown. A bound single-team scope
 * (`team:<id>:read`) reads as its unbound form, for the team it names; a cross-app scope names the
 * other app (by name when `appNames` knows it).
 */
export function scopeSentence(scope: string, appNames: Record<string, string> = {}): string {
  const known = SENTENCES as Record<string, string>;
  if (known[scope]) return known[scope];
  // Spec 1 section 4.3: the other app may trade this app's access for its own, acting for you.
  const other = CROSS_APP_SCOPE.exec(scope)?.[1];
  if (other) return `Let the app “${appNames[other] ?? other}” act for you with what you allow here`;
  const bound = /^team:[^:]+:(.+)$/.exec(scope);
  const text = bound ? known[`team:${bound[1]}`] : undefined;
  return text ? text.replace("one team you choose", "the team you chose") : scope;
}
