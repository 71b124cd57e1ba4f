/** argon2id at OWASP's recommended cost (19 MiB, 2 passes): about 30 ms a hash on these machines. */
const PARAMS = { algorithm: "argon2id", memoryCost: 19_456, timeCost: 2 } as const;

const MIN_PASSWORD = 10;
const MAX_PASSWORD = 1024;

export function hashPassword(password: string): Promise<string> {
  return Bun.password.hash(password, PARAMS);
}

/** The hash of an account made by signing in at an upstream provider: it has no password yet. */
export const NO_PASSWORD = "";

export function verifyPassword(password: string, hash: string): Promise<boolean> {
  // No password matches none; the same work is spent, so timing does not say the account has none.
  if (hash === NO_PASSWORD) return verifyAgainstDummy(password);
  return Bun.password.verify(password, hash);
}

let dummy: Promise<string> | null = null;

/** Spends the same work as a real check, for an unknown user, so timing tells nothing. */
export async function verifyAgainstDummy(password: string): Promise<false> {
  dummy ??= hashPassword("cairn dummy password that never matches");
  await Bun.password.verify(password, await dummy);
  return false;
}

/** Why a new password is refused, or null when it is acceptable. */
export function passwordProblem(password: string, username: string, email: string): string | null {
  // Counted in characters (code points), not UTF-16 units; blank passwords never pass.
  if ([...password].length < MIN_PASSWORD || password.trim() === "") return `The password must be at least ${MIN_PASSWORD} characters.`;
  if (password.length > MAX_PASSWORD) return `The password must be at most ${MAX_PASSWORD} characters.`;
  const lower = password.toLowerCase();
  if (lower === username.toLowerCase() || lower === email.toLowerCase()) return "The password must differ from your username and email.";
  return null;
}
