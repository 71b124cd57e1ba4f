/**
 * The fields of `draft` whose values differ from `base` (compared as JSON, so arrays compare by
 * content): the body of a PATCH or PUT that sends only what the user changed.
 */
export function changedFields<T extends object>(base: T, draft: T): Partial<T> {
  const patch: Partial<T> = {};
  for (const key of Object.keys(draft) as (keyof T)[]) {
    if (JSON.stringify(draft[key]) !== JSON.stringify(base[key])) patch[key] = draft[key];
  }
  return patch;
}

export const isEmptyPatch = (patch: object): boolean => Object.keys(patch).length === 0;
