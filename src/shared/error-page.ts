import { SPA_CSP } from "./security-headers.ts";

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** A small server-rendered page for a person who cannot be sent anywhere useful. All text escaped. */
export function htmlErrorPage(status: number, title: string, paragraphs: string[], headers: Record<string, string> = {}): Response {
  const body = paragraphs.map((p) => `<p>${escapeHtml(p)}</p>`).join("");
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(title)}</title></head>
<body><main><h1>${escapeHtml(title)}</h1>${body}<p><a href="/">Go to Cairn</a></p></main></body></html>`;
  return new Response(html, { status, headers: { "content-type": "text/html; charset=utf-8", "content-security-policy": SPA_CSP, "cache-control": "no-store", ...headers } });
}

/** 429 for a person who started too many sign-ins at once (or everyone did). */
export const busyPage = (retryAfterSeconds: number) =>
  htmlErrorPage(429, "Too many sign-ins at once", ["Wait a minute, then try again."], { "retry-after": String(retryAfterSeconds) });
