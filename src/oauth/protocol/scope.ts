/** RFC 6749 section 3.3: scope-token = 1*( %x21 / %x23-5B / %x5D-7E ), space-delimited. */
const SCOPE_TOKEN = /^[\x21\x23-\x5B\x5D-\x7E]+$/;

/** The scope tokens of a scope string, in order, without repeats; null when one is malformed. */
export function parseScope(scope: string): string[] | null {
  const tokens = scope.split(" ").filter((t) => t !== "");
  if (!tokens.every((t) => SCOPE_TOKEN.test(t))) return null;
  return [...new Set(tokens)];
}
