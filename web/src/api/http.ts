/** An API answer that was not 2xx, carrying the server's `error` text. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly error: string,
  ) {
    super(error);
  }
}

export type ApiResponse<T> = { data: T; headers: Headers };

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
  const data = (await res.json().catch(() => null)) as (T & { error?: string }) | null;
  if (!res.ok) throw new ApiError(res.status, data?.error ?? `Request failed (${res.status})`);
  return { data: data as T, headers: res.headers };
}
