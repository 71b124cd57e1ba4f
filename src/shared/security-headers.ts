import { Elysia } from "elysia";

/** API answers are data, never documents: nothing may load from them or frame them. */
export const API_CSP = "default-src 'none'; frame-ancestors 'none'; base-uri 'none'";

/** The SPA loads its own scripts and styles only; pictures (logos, avatars) may come from https. */
export const SPA_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data: https:",
  "media-src 'self' https:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join("; ");

export function securityHeaders(issuer: string) {
  const https = issuer.startsWith("https:");
  return (
    new Elysia({ name: "security-headers" })
      .onRequest(({ set }) => {
        set.headers["x-content-type-options"] = "nosniff";
        set.headers["referrer-policy"] = "no-referrer";
        set.headers["x-frame-options"] = "DENY";
        set.headers["cross-origin-opener-policy"] = "same-origin";
        set.headers["content-security-policy"] = API_CSP;
        if (https) set.headers["strict-transport-security"] = "max-age=31536000; includeSubDomains";
      })
      // API answers carry tokens, secrets, share links and exports: no cache keeps them unless the
      // route says otherwise (public images and discovery documents set their own).
      .onAfterHandle({ as: "global" }, ({ path, set }) => {
        if (path.startsWith("/api/") && set.headers["cache-control"] === undefined) set.headers["cache-control"] = "no-store";
      })
  );
}
