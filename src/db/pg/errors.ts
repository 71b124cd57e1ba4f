/**
 * The database cannot be reached or would not take the statement now (down, restarting, out of
 * connections, too slow to answer): nothing the caller did, so it may try again later. Issue 46:
 * requests answer it with 503 and `Retry-After`, readiness with not-ready.
 */
export class DatabaseUnavailableError extends Error {
  override readonly name = "DatabaseUnavailableError";
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
  }
}

/** SQLSTATEs callers branch on (PostgreSQL appendix A). */
export const UNIQUE_VIOLATION = "23505";
export const FOREIGN_KEY_VIOLATION = "23503";
const SERIALIZATION_FAILURE = "40001";
const DEADLOCK_DETECTED = "40P01";

/** The SQLSTATE the server sent with `error` ("23505"), or undefined for an error of the client or of anything else. */
export function sqlState(error: unknown): string | undefined {
  if (!(error instanceof Bun.SQL.PostgresError)) return undefined;
  return error.errno;
}

/** A serialization failure or deadlock: the whole transaction may run again and succeed. */
export function isRetryable(error: unknown): boolean {
  const state = sqlState(error);
  return state === SERIALIZATION_FAILURE || state === DEADLOCK_DETECTED;
}

// Bun's own codes for a connection that could not be made, was lost, or timed out.
const CLIENT_UNAVAILABLE = new Set([
  "ERR_POSTGRES_CONNECTION_CLOSED",
  "ERR_POSTGRES_CONNECTION_REFUSED",
  "ERR_POSTGRES_CONNECTION_FAILED",
  "ERR_POSTGRES_CONNECTION_TIMEOUT",
  "ERR_POSTGRES_IDLE_TIMEOUT",
  "ERR_POSTGRES_LIFETIME_TIMEOUT",
]);

/**
 * Whether `error` says the server is out of reach rather than that the statement was wrong:
 * class 08 (connection exception), 53300 (too many connections), 57P01-57P03 (shut down, crashed,
 * starting up); Bun's connection codes; a system error of the socket.
 */
export function isUnavailable(error: unknown): boolean {
  if (error instanceof DatabaseUnavailableError) return true;
  const state = sqlState(error);
  if (state) return state.startsWith("08") || state === "53300" || state === "57P01" || state === "57P02" || state === "57P03";
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === "string" && (CLIENT_UNAVAILABLE.has(code) || /^E(CONNREFUSED|CONNRESET|HOSTUNREACH|NETUNREACH|PIPE|TIMEDOUT)$/.test(code));
}

/** `error` itself, or a DatabaseUnavailableError carrying it when it says the server is out of reach. */
export function classifyError(error: unknown): unknown {
  if (error instanceof DatabaseUnavailableError || !isUnavailable(error)) return error;
  return new DatabaseUnavailableError(`database unavailable: ${(error as Error).message}`, { cause: error });
}
