import { invalidRequest } from "../protocol/oauth.errors.ts";

/** RFC 8707 section 2 and RFC 8693 section 2.1: `resource` and `audience` may be given several times. */
export const REPEATABLE: ReadonlySet<string> = new Set(["resource", "audience"]);

/**
 * The form body of a token-family request (RFC 6749 section 3.2): urlencoded, and no parameter
 * more than once (a repeated one is an invalid_request, not a last-one-wins).
 */
export function parseForm(request: Request, body: unknown): URLSearchParams {
  const type = request.headers.get("content-type") ?? "";
  if (!type.toLowerCase().startsWith("application/x-www-form-urlencoded")) throw invalidRequest("the body must be application/x-www-form-urlencoded");
  const form = new URLSearchParams(typeof body === "string" ? body : "");
  const seen = new Set<string>();
  for (const [key] of form) {
    if (seen.has(key) && !REPEATABLE.has(key)) throw invalidRequest(`parameter "${key}" is repeated`);
    seen.add(key);
  }
  return form;
}
