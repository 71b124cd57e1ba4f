/** What a message says: a heading, paragraphs of plain text, at most one button, a small footer. */
export type MailContent = {
  heading: string;
  lines: string[];
  action?: { label: string; url: string };
  footer?: string;
};

const escapeHtml = (text: string) => Bun.escapeHTML(text);

// Inline styles only: most mail clients drop <style> blocks and every external sheet.
const FONT = "font-family:-apple-system,'Segoe UI',Roboto,Helvetica,Arial,sans-serif";
const PARAGRAPH = `margin:0 0 16px;font-size:15px;line-height:1.5;color:#1f2328;${FONT}`;
const BUTTON = `display:inline-block;padding:10px 18px;border-radius:6px;background:#1f6feb;color:#ffffff;text-decoration:none;font-size:15px;font-weight:600;${FONT}`;

/** A link in a message goes to a web page: anything but http(s) is a caller's mistake, refused here. */
function checkedUrl(url: string): string {
  const protocol = URL.parse(url)?.protocol;
  if (protocol !== "https:" && protocol !== "http:") throw new Error(`composeMail: the action's URL must be http(s), got ${url.slice(0, 40)}`);
  return url;
}

/** Paragraph text keeps its line breaks in HTML. */
const paragraphHtml = (line: string) => `<p style="${PARAGRAPH}">${escapeHtml(line).replaceAll("\n", "<br>")}</p>`;

/**
 * The one layout of every message Cairn sends, as plain text and as HTML with the same words.
 * Every string is plain text: escaped in the HTML, so a todo title or a name can never add markup.
 */
export function composeMail({ heading, lines, action, footer }: MailContent): { text: string; html: string } {
  const url = action ? checkedUrl(action.url) : null;
  const text = [heading, ...lines, ...(action && url ? [`${action.label}: ${url}`] : []), ...(footer ? [`-- \n${footer}`] : [])].join("\n\n");
  const button =
    action && url
      ? `<p style="margin:24px 0"><a href="${escapeHtml(url)}" style="${BUTTON}">${escapeHtml(action.label)}</a></p>` +
        `<p style="${PARAGRAPH}font-size:13px;color:#57606a">${escapeHtml("If the button does not work, open this address:")}<br><a href="${escapeHtml(url)}" style="color:#1f6feb;word-break:break-all">${escapeHtml(url)}</a></p>`
      : "";
  const foot = footer
    ? `<p style="margin:24px 0 0;padding-top:16px;border-top:1px solid #d0d7de;font-size:12px;line-height:1.5;color:#57606a;${FONT}">${escapeHtml(footer).replaceAll("\n", "<br>")}</p>`
    : "";
  const html =
    `<!doctype html><html><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${escapeHtml(heading)}</title></head>` +
    `<body style="margin:0;padding:24px;background:#f6f8fa"><div style="max-width:560px;margin:0 auto;padding:32px;background:#ffffff;border:1px solid #d0d7de;border-radius:8px">` +
    `<h1 style="margin:0 0 20px;font-size:20px;color:#1f2328;${FONT}">${escapeHtml(heading)}</h1>${lines.map(paragraphHtml).join("")}${button}${foot}</div></body></html>`;
  return { text, html };
}
