import { createHash } from "node:crypto";
import { escapeHtml, STANDALONE_PAGE_STYLE } from "../../shared/error-page.ts";

// The page's own stylesheet and a form back to itself; no script runs and nothing loads.
const CSP = `default-src 'none'; style-src 'sha256-${createHash("sha256").update(STANDALONE_PAGE_STYLE).digest("base64")}'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'`;

type Page = { status: number; title: string; paragraphs: string[]; tone: "ok" | "error"; end: { button: string } | { href: string; label: string } };

/** A standalone page of the one-click unsubscribe link: styled like the app, every text escaped. */
export function unsubscribePage({ status, title, paragraphs, tone, end }: Page): Response {
  const body = paragraphs.map((p) => `<p>${escapeHtml(p)}</p>`).join("");
  // RFC 8058 section 3.1: the same body a mail client's one-click POST sends.
  const action =
    "button" in end
      ? `<form method="post"><input type="hidden" name="List-Unsubscribe" value="One-Click"><button class="btn" type="submit">${escapeHtml(end.button)}</button></form>`
      : `<a class="btn" href="${escapeHtml(end.href)}">${escapeHtml(end.label)}</a>`;
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="robots" content="noindex"><title>${escapeHtml(title)}</title><style>${STANDALONE_PAGE_STYLE}</style></head>
<body><main class="${tone}"><h1>${escapeHtml(title)}</h1>${body}${action}</main></body></html>`;
  return new Response(html, { status, headers: { "content-type": "text/html; charset=utf-8", "content-security-policy": CSP, "cache-control": "no-store" } });
}
