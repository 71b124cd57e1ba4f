import type { Server } from "bun";

/** The caller's address: the socket's, or the proxy's last X-Forwarded-For hop when trusted. */
export function clientIp(request: Request, server: Server<unknown> | null | undefined, trustProxy: boolean): string {
  if (trustProxy) {
    const hops = request.headers
      .get("x-forwarded-for")
      ?.split(",")
      .map((h) => h.trim())
      .filter(Boolean);
    const last = hops?.[hops.length - 1];
    if (last) return last;
  }
  return server?.requestIP(request)?.address ?? "";
}

/** Who signs in from where: the address and the User-Agent, for rate limits and the session list. */
export function signingInClient(request: Request, server: Server<unknown> | null | undefined, trustProxy: boolean) {
  return { ip: clientIp(request, server, trustProxy), userAgent: request.headers.get("user-agent") ?? "" };
}

/** A short human label for a User-Agent: "Firefox on Linux". */
export function describeDevice(userAgent: string): string {
  const browser = /Edg\//.test(userAgent)
    ? "Edge"
    : /Firefox\//.test(userAgent)
      ? "Firefox"
      : /Chrom(e|ium)\//.test(userAgent)
        ? "Chrome"
        : /Safari\//.test(userAgent)
          ? "Safari"
          : /curl\//.test(userAgent)
            ? "curl"
            : "";
  const os = /Android/.test(userAgent)
    ? "Android"
    : /iPhone|iPad/.test(userAgent)
      ? "iOS"
      : /Windows/.test(userAgent)
        ? "Windows"
        : /Mac OS X/.test(userAgent)
          ? "macOS"
          : /Linux/.test(userAgent)
            ? "Linux"
            : "";
  if (browser && os) return `${browser} on ${os}`;
  return browser || os || "Unknown device";
}
