import { shareLinksApi } from "../../../api/share-links.ts";

type EmbedKind = "badge" | "checklist";
export type Embed = { kind: EmbedKind; title: string; image: string; markdown: string; html: string };

const escapeMarkdownText = (text: string) => text.replace(/[\\[\]]/g, (c) => `\\${c}`);
const escapeHtml = (text: string) => text.replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[c] as string);

/** The public page of a link, absolute (what a person shares). */
export const publicUrl = (origin: string, token: string) => `${origin}/s/${encodeURIComponent(token)}`;

/** Markdown and HTML that embed a link's SVG (spec 2 section 4.4), each image linking to the public page. */
export function embedsOf(origin: string, token: string, setName: string): Embed[] {
  const page = publicUrl(origin, token);
  const make = (kind: EmbedKind, title: string, path: string): Embed => {
    const image = `${origin}${path}`;
    return {
      kind,
      title,
      image,
      markdown: `[![${escapeMarkdownText(setName)}](${image})](${page})`,
      html: `<a href="${escapeHtml(page)}"><img src="${escapeHtml(image)}" alt="${escapeHtml(setName)}"></a>`,
    };
  };
  return [make("badge", "Progress badge", shareLinksApi.badgeUrl(token)), make("checklist", "Checklist", shareLinksApi.checklistUrl(token))];
}
