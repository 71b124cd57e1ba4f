import type { SetPatch, TodoSet } from "../../../api/workspace.ts";
import { changedFields } from "../settings/settings-diff.ts";

export type SetDraft = Required<SetPatch>;

export const draftOf = (set: TodoSet): SetDraft => ({
  name: set.name,
  splitCompleted: set.splitCompleted,
  autoRenew: set.autoRenew,
  renewTime: set.renewTime,
  timezone: set.timezone,
});

/** Spec 2 section 4.1 PATCH: only the fields that changed; the name is sent trimmed. */
export function setPatchOf(set: TodoSet, draft: SetDraft): SetPatch {
  return changedFields(draftOf(set), { ...draft, name: draft.name.trim() });
}
