/**
 * fetch with a cookie jar, as a browser would keep one for the test's origin. `origin`: the site's
 * own when this process reaches it at another address (an issuer name only the browser resolves).
 * `cookies`: another jar's, for the same browser reaching the site at another address (one of
 * several instances behind a load balancer).
 */
export function jarFetch(base: string, origin = base, cookies = new Map<string, string>()) {
  const call = async (path: string, init: RequestInit = {}): Promise<Response> => {
    const headers = new Headers(init.headers);
    // Like a browser on our own pages: writes carry the page's Origin (the CSRF check wants it).
    if (init.method && !["GET", "HEAD"].includes(init.method) && !headers.has("origin")) headers.set("origin", origin);
    if (cookies.size > 0 && !headers.has("cookie")) headers.set("cookie", [...cookies].map(([k, v]) => `${k}=${v}`).join("; "));
    const res = await fetch(base + path, { ...init, headers, redirect: "manual" });
    for (const line of res.headers.getSetCookie()) {
      const [pair = ""] = line.split(";");
      const eq = pair.indexOf("=");
      const name = pair.slice(0, eq).trim();
      const value = pair.slice(eq + 1).trim();
      if (/max-age=0|expires=thu, 01 jan 1970/i.test(line) || value === "") cookies.delete(name);
      else cookies.set(name, value);
    }
    return res;
  };
  /** JSON request helper: sends `body` as JSON and parses the answer. */
  const json = async (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) => {
    const res = await call(path, {
      method,
      headers: body === undefined ? headers : { "content-type": "application/json", ...headers },
      body: body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body),
    });
    return readAnswer(res);
  };
  return { fetch: call, json, cookies };
}

/** A response as tests look at it: status, headers, and the body parsed as JSON when it is JSON. */
export async function readAnswer(res: Response) {
  const text = await res.text();
  let data: any = null;
  try {
    data = JSON.parse(text);
  } catch {
    data = text;
  }
  return { status: res.status, headers: res.headers, data };
}
