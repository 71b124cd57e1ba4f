import { CopyField } from "../../../components/copy-field.tsx";
import { embedsOf } from "./embed.ts";

/** Spec 2 section 4.4 SVGs: a live preview of the badge and the checklist, with snippets to paste. */
export function EmbedSection({ token, setName }: { token: string; setName: string }) {
  return (
    <div class="share-embeds">
      {embedsOf(location.origin, token, setName).map((embed) => (
        <section key={embed.kind} class="share-embed" aria-label={embed.title}>
          <h4>{embed.title}</h4>
          <div class={`share-preview share-preview-${embed.kind}`}>
            <img src={embed.image} alt={`${embed.title} of ${setName}`} />
          </div>
          <CopyField label={`${embed.title} Markdown`} value={embed.markdown} />
          <CopyField label={`${embed.title} HTML`} value={embed.html} />
        </section>
      ))}
      <p class="field-hint">The images are read-only, show no email restriction, and refresh at most once a minute.</p>
    </div>
  );
}
