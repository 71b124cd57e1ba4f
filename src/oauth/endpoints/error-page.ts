import { SPA_CSP } from "../../shared/security-headers.ts";

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** The page a user sees when an authorization request cannot go back to its client. */
export function authorizeErrorPage(error: string, description: string): Response {
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Sign-in request refused</title></head>
<body><main><h1>This sign-in request cannot continue</h1><p>The application sent a request Cairn cannot accept, so you were not sent back to it.</p>
<p><strong>${escapeHtml(error)}</strong>: ${escapeHtml(description)}</p><p><a href="/">Go to Cairn</a></p></main></body></html>`;
  return new Response(html, { status: 400, headers: { "content-type": "text/html; charset=utf-8", "content-security-policy": SPA_CSP, "cache-control": "no-store" } });
}
