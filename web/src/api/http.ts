/**
 * An API answer that was not 2xx. `error` is the server's code (identity API) or its exact text
 * (spec 3 APIs); the message is what a person should read: `error_description` when there is one.
 */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly error: string,
    readonly description?: string,
    /** The whole answer, for the few errors that carry more than a message. */
    readonly body?: Record<string, unknown> | null,
  ) {
    super(description || error);
  }
}

export type ApiResponse<T> = { data: T; headers: Headers };

let onSignedOut: (() => void) | null = null;

/** Called when a signed-in API answers 401: the session ended elsewhere (revoked, expired). */
export function onSessionLost(handler: () => void): void {
  onSignedOut = handler;
}

/** The one place the SPA calls fetch: JSON in, JSON out, same-origin cookies. */
export async function request<T>(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<ApiResponse<T>> {
  const init: RequestInit = { method, credentials: "same-origin", headers: { accept: "application/json", ...headers } };
  if (body !== undefined) {
    init.body = JSON.stringify(body);
    (init.headers as Record<string, string>)["content-type"] = "application/json";
  }
  let res: Response;
  try {
    res = await fetch(path, init);
  } catch {
    throw new ApiError(0, "The server cannot be reached. Check your connection and try again.");
  }
  const data = (await res.json().catch(() => null)) as (T & { error?: string; error_description?: string }) | null;
  // Sign-in calls answer 401 for a wrong password; anywhere else it means the session is gone.
  if (res.status === 401 && !path.startsWith("/api/auth/") && !path.startsWith("/api/init/")) onSignedOut?.();
  if (!res.ok) throw new ApiError(res.status, data?.error ?? `Request failed (${res.status})`, data?.error_description, data as Record<string, unknown> | null);
  return { data: data as T, headers: res.headers };
}

/** Builds `?a=1&b=2` from the defined values, or "" when there are none. */
export function query(params: Record<string, string | number | undefined>): string {
  const q = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) if (value !== undefined && value !== "") q.set(key, String(value));
  const text = q.toString();
  return text ? `?${text}` : "";
}
