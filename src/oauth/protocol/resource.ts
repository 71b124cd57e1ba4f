import { invalidTarget } from "./oauth.errors.ts";

/**
 * RFC 8707 section 2: each `resource` is an absolute URI without a fragment. The distinct values
 * in order, or the first bad one.
 */
export function checkResources(values: readonly string[]): { resources: string[] } | { bad: string } {
  const resources: string[] = [];
  for (const value of values) {
    let url: URL;
    try {
      url = new URL(value);
    } catch {
      return { bad: value };
    }
    if (value.includes("#") || value.length > 2048 || url.href === "") return { bad: value };
    if (!resources.includes(value)) resources.push(value);
  }
  if (resources.length > 10) return { bad: resources[10] as string };
  return { resources };
}

/** The refusal's text for a malformed `resource` (RFC 8707 `invalid_target`). */
export const resourceProblem = (bad: string) => `resource ${bad} must be an absolute URI without fragment`;

/** The request's `resource`s, checked; a malformed one is `invalid_target` (token-family endpoints). */
export function requestedResources(params: URLSearchParams): string[] {
  const checked = checkResources(params.getAll("resource"));
  if ("bad" in checked) throw invalidTarget(resourceProblem(checked.bad));
  return checked.resources;
}

/**
 * What a token may be for: the resources asked for now, which must be among those granted when the
 * grant named any (a refresh or a code redemption may narrow, never widen). Null when it would widen.
 */
export function narrowedResources(granted: readonly string[], asked: readonly string[]): string[] | null {
  if (asked.length === 0) return [...granted];
  if (granted.length > 0 && !asked.every((r) => granted.includes(r))) return null;
  return [...asked];
}
