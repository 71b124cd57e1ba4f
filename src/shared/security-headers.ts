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
      // Every answer starts with these (Elysia copies them into each response's headers).
      .headers({
        "x-content-type-options": "nosniff",
        "referrer-policy": "no-referrer",
        "x-frame-options": "DENY",
        "cross-origin-opener-policy": "same-origin",
        "content-security-policy": API_CSP,
        ...(https ? { "strict-transport-security": "max-age=31536000; includeSubDomains" } : {}),
      })
      // API answers carry tokens, secrets, share links and exports: no cache keeps them unless the
      // route says otherwise (public images and discovery documents set their own).
      .onAfterHandle({ as: "global" }, ({ path, set }) => {
        if (path.startsWith("/api/") && set.headers["cache-control"] === undefined) set.headers["cache-control"] = "no-store";
      })
  );
}
