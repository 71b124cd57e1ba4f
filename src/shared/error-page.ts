import { createHash } from "node:crypto";

export const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

// The SPA's look (web/src/styles/app.css), light and dark, inline: these pages stand alone.
export const STANDALONE_PAGE_STYLE = `:root{--bg:#f6f7f9;--surface:#fff;--text:#1b2430;--muted:#5b6676;--border:#d6dbe2;--accent:#2a64cc;--accent-text:#fff;--danger:#c23a3a;color-scheme:light dark}
@media (prefers-color-scheme:dark){:root{--bg:#12161c;--surface:#1b2129;--text:#e6ebf1;--muted:#9aa5b4;--border:#333d4a;--accent:#6ea1ff;--accent-text:#0b1320;--danger:#ff7b7b}}
*{box-sizing:border-box}body{margin:0;min-height:100vh;display:grid;place-items:center;padding:24px;background:var(--bg);color:var(--text);font:15px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,Ubuntu,sans-serif}
main{max-width:34rem;width:100%;background:var(--surface);border:1px solid var(--border);border-top:4px solid var(--danger);border-radius:8px;padding:24px 28px}
h1{font-size:1.3rem;margin:0 0 12px}p{margin:0 0 12px}p.detail{color:var(--muted);font-family:ui-monospace,monospace;font-size:.9em;overflow-wrap:anywhere}
a.btn,button.btn{display:inline-block;margin-top:8px;padding:8px 16px;border:0;border-radius:8px;background:var(--accent);color:var(--accent-text);text-decoration:none;font:inherit;font-weight:600;cursor:pointer}
main.ok{border-top-color:var(--accent)}a:focus-visible,button:focus-visible{outline:3px solid #f0a020;outline-offset:2px}`;

// Only this very stylesheet may apply: the page still runs no script and loads nothing.
const CSP = `default-src 'none'; style-src 'sha256-${createHash("sha256").update(STANDALONE_PAGE_STYLE).digest("base64")}'; img-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'`;

/**
 * A small server-rendered page for a person who cannot be sent anywhere useful: styled like the
 * app, all text escaped. `detail` lines are technical (an error code, a URI) and set apart;
 * `action` is the one way on (Cairn's home unless said).
 */
export function htmlErrorPage(
  status: number,
  title: string,
  paragraphs: string[],
  headers: Record<string, string> = {},
  detail: string[] = [],
  action: { href: string; label: string } = { href: "/", label: "Go to Cairn" },
): Response {
  const body = paragraphs.map((p) => `<p>${escapeHtml(p)}</p>`).join("") + detail.map((d) => `<p class="detail">${escapeHtml(d)}</p>`).join("");
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(title)}</title><style>${STANDALONE_PAGE_STYLE}</style></head>
<body><main><h1>${escapeHtml(title)}</h1>${body}<a class="btn" href="${escapeHtml(action.href)}">${escapeHtml(action.label)}</a></main></body></html>`;
  return new Response(html, {
    status,
    headers: { "content-type": "text/html; charset=utf-8", "content-security-policy": CSP, "cache-control": "no-store", ...headers },
  });
}

/** 429 for a person who started too many sign-ins at once (or everyone did). */
export const busyPage = (retryAfterSeconds: number) =>
  htmlErrorPage(429, "Too many sign-ins at once", ["Wait a minute, then try again."], { "retry-after": String(retryAfterSeconds) });
