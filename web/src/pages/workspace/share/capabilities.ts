import { CAPABILITY_KEYS, type Capabilities, type ShareLink, type ShareLinkInput } from "../../../api/share-links.ts";

/** How each capability of spec 2 section 2.4 reads to a person, in the dialog and on the public page. */
export const CAPABILITY_LABELS: Record<keyof Capabilities, { label: string; short: string; hint?: string }> = {
  canView: { label: "View the todos", short: "View" },
  canCreate: { label: "Add todos and sub-todos", short: "Add" },
  canEdit: { label: "Edit titles", short: "Edit" },
  canComplete: { label: "Tick todos done or open", short: "Complete" },
  canDelete: { label: "Delete todos", short: "Delete" },
  canReorder: { label: "Reorder todos", short: "Reorder" },
  canComment: { label: "Comment", short: "Comment" },
};

/**
 * The capabilities a person can give a link: canComment is reserved by spec 2 section 2.4 (the
 * server stores it, no public page offers comments), so it is neither offered nor promised.
 */
export const OFFERED_CAPABILITIES = CAPABILITY_KEYS.filter((key) => key !== "canComment");

/** Spec 2 section 2.4 defaults: view on, everything else off. */
const DEFAULT_CAPABILITIES: Capabilities = {
  canView: true,
  canCreate: false,
  canEdit: false,
  canComplete: false,
  canDelete: false,
  canComment: false,
  canReorder: false,
};

export type LinkDraft = Capabilities & { name: string; allowedEmails: string; requireEmailCode: boolean };

export const draftOf = (link: ShareLink): LinkDraft => ({
  name: link.name,
  allowedEmails: link.allowedEmails,
  requireEmailCode: link.requireEmailCode,
  ...(Object.fromEntries(CAPABILITY_KEYS.map((key) => [key, link[key]])) as Capabilities),
});

export const emptyDraft = (): LinkDraft => ({ name: "", allowedEmails: "", requireEmailCode: false, ...DEFAULT_CAPABILITIES });

/** The comma-separated allow-list as a list, empty entries dropped (for display only; the server decides). */
export const emailsOf = (allowedEmails: string): string[] =>
  allowedEmails
    .split(",")
    .map((e) => e.trim())
    .filter(Boolean);

/** The allow-list as it is sent: entries trimmed and joined, so stray spaces do not count as a change. */
const tidyEmails = (allowedEmails: string): string => emailsOf(allowedEmails).join(", ");

/** What to send for a draft: the whole draft on create, only the changed fields on update (spec 2 section 4.3). */
export function inputOf(draft: LinkDraft, before?: LinkDraft): ShareLinkInput {
  const allowedEmails = tidyEmails(draft.allowedEmails);
  // A code is checked against the list: without one, the option has nothing to do.
  const next: LinkDraft = { ...draft, name: draft.name.trim(), allowedEmails, requireEmailCode: draft.requireEmailCode && allowedEmails !== "" };
  if (!before) {
    // An unnamed link leaves the label to the server's default.
    const { name, ...rest } = next;
    return name ? next : rest;
  }
  const changed: ShareLinkInput = {};
  if (next.name !== before.name) changed.name = next.name;
  if (next.allowedEmails !== tidyEmails(before.allowedEmails)) changed.allowedEmails = next.allowedEmails;
  if (next.requireEmailCode !== before.requireEmailCode) changed.requireEmailCode = next.requireEmailCode;
  for (const key of CAPABILITY_KEYS) if (next[key] !== before[key]) changed[key] = next[key];
  return changed;
}

/** The offered capabilities a link grants, in the fixed order of CAPABILITY_KEYS. */
export const grantedOf = (caps: Capabilities): (keyof Capabilities)[] => OFFERED_CAPABILITIES.filter((key) => caps[key]);
