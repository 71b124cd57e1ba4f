import { useId, useState } from "preact/hooks";
import type { ShareLink } from "../../../api/share-links.ts";
import { Button } from "../../../components/button.tsx";
import { CopyField } from "../../../components/copy-field.tsx";
import { formatTime } from "../../../lib/format.ts";
import { CAPABILITY_LABELS, draftOf, emailsOf, grantedOf, type LinkDraft } from "./capabilities.ts";
import { publicUrl } from "./embed.ts";
import { EmbedSection } from "./embed-section.tsx";
import { LinkForm } from "./link-form.tsx";

type Props = { link: ShareLink; setName: string; mail?: boolean; onSave: (draft: LinkDraft) => Promise<unknown>; onDelete: () => void };

/** One share link: what it allows and for whom, its public address, embeds, edit and delete. */
export function LinkCard({ link, setName, mail, onSave, onDelete }: Props) {
  const [editing, setEditing] = useState(false);
  // The previews load only once someone opens the embed section.
  const [embedOpen, setEmbedOpen] = useState(false);
  const nameId = useId();
  const name = link.name || "Unnamed link";
  const granted = grantedOf(link);
  const emails = emailsOf(link.allowedEmails);
  return (
    <li class="share-link" aria-labelledby={nameId}>
      <div class="share-link-head">
        <strong id={nameId} class="break">
          {name}
        </strong>
        <span class="muted small nowrap">Created {formatTime(link.createdAt)}</span>
      </div>
      {editing ? (
        <LinkForm
          initial={draftOf(link)}
          submitLabel="Save"
          mail={mail}
          onCancel={() => setEditing(false)}
          onSubmit={async (draft) => {
            await onSave(draft);
            setEditing(false);
          }}
        />
      ) : (
        <>
          <p class="share-caps-line">
            <span class="visually-hidden">Visitors can: </span>
            {granted.length === 0 ? <span class="muted small">Nothing is allowed: the link opens an empty page.</span> : null}
            {granted.map((key) => (
              <span key={key} class="badge share-cap" data-capability={key}>
                {CAPABILITY_LABELS[key].short}
              </span>
            ))}
          </p>
          <p class="small share-emails">
            {emails.length === 0 ? (
              <span class="muted">Anyone with the link can open it.</span>
            ) : (
              <>
                <span class="muted">Only for: </span>
                {emails.map((e) => (
                  <span key={e} class="badge share-email">
                    {e}
                  </span>
                ))}
                {link.requireEmailCode ? <span class="muted"> A code is mailed to the address before the list opens.</span> : null}
              </>
            )}
          </p>
          <CopyField label="Public link" value={publicUrl(location.origin, link.token)} />
          <details class="disclosure share-embed-toggle" open={embedOpen} onToggle={(e) => setEmbedOpen(e.currentTarget.open)}>
            <summary>Embed a badge or checklist</summary>
            {embedOpen ? <EmbedSection token={link.token} setName={setName} /> : null}
          </details>
          <div class="share-link-actions">
            <Button variant="secondary" onClick={() => setEditing(true)} aria-label={`Edit ${name}`}>
              Edit
            </Button>
            <Button variant="danger" onClick={onDelete} aria-label={`Delete ${name}`}>
              Delete
            </Button>
          </div>
        </>
      )}
    </li>
  );
}
