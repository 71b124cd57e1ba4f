/** A bad environment value; the message is the one line printed before the process stops. */
export class ConfigError extends Error {
  constructor(
    readonly variable: string,
    problem: string,
  ) {
    super(`${variable}: ${problem}`);
    this.name = "ConfigError";
  }
}

export type Env = Record<string, string | undefined>;

/** The variable's value trimmed, or undefined when unset or blank. */
export function value(env: Env, name: string): string | undefined {
  const raw = env[name];
  return raw === undefined || raw.trim() === "" ? undefined : raw.trim();
}

export function integer(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = value(env, name);
  if (raw === undefined) return fallback;
  if (!/^\d+$/.test(raw)) throw new ConfigError(name, `must be a whole number, got "${raw}"`);
  const n = Number(raw);
  if (n < min || n > max) throw new ConfigError(name, `must be between ${min} and ${max}, got ${n}`);
  return n;
}

// Only the two words: whether to believe X-Forwarded-For is no place to guess what "1" or "on" meant.
export function boolean(env: Env, name: string, fallback = false): boolean {
  const raw = value(env, name);
  if (raw === undefined) return fallback;
  if (raw.toLowerCase() === "false") return false;
  if (raw.toLowerCase() === "true") return true;
  throw new ConfigError(name, `must be true or false, got "${raw}"`);
}
