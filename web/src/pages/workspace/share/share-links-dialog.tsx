import { useId, useState } from "preact/hooks";
import { type ShareLink, shareLinksApi } from "../../../api/share-links.ts";
import { workspaceApi } from "../../../api/workspace.ts";
import { Button } from "../../../components/button.tsx";
import { ConfirmDialog } from "../../../components/confirm-dialog.tsx";
import { Dialog } from "../../../components/dialog.tsx";
import { FormError } from "../../../components/form-error.tsx";
import { LocalhostWarning } from "../../../components/localhost-warning.tsx";
import { toast } from "../../../lib/toasts.ts";
import { useLoad } from "../../../lib/use-load.ts";
import { draftOf, emptyDraft, inputOf } from "./capabilities.ts";
import { LinkCard } from "./link-card.tsx";
import { LinkForm } from "./link-form.tsx";

type Props = { open: boolean; teamId: string; set: { id: string; name: string }; onClose: () => void };

/** Spec 2 section 4.3: the share links of one set, to create, copy, embed, edit and delete. */
export function ShareLinksDialog({ open, teamId, set, onClose }: Props) {
  const [deleting, setDeleting] = useState<ShareLink | null>(null);
  const newId = useId();
  const links = useLoad(() => (open ? shareLinksApi.forSet(teamId, set.id) : Promise.resolve(undefined)), [open, teamId, set.id]);
  const list = links.data ?? [];
  // Issue 44: whether email codes can be offered (they need mail).
  const mail = useLoad(() => (open ? workspaceApi.mailStatus() : Promise.resolve(undefined)), [open]).data?.mail;

  return (
    <>
      <Dialog
        open={open}
        title={`Share “${set.name}”`}
        onClose={onClose}
        actions={
          <Button variant="secondary" onClick={onClose}>
            Close
          </Button>
        }
      >
        <div class="share-dialog">
          <p class="muted small share-intro">
            A share link opens this set to people without an account, allowing only what you tick. Limit it to some email addresses to keep it private.
          </p>
          <LocalhostWarning issuer={location.origin} audience="other people" />
          <FormError message={links.error} />
          {links.data === undefined && links.loading ? <p class="muted">Loading…</p> : null}
          {links.data !== undefined && list.length === 0 ? <p class="empty-inline">No share links yet.</p> : null}
          {list.length > 0 ? (
            <ul class="share-links" aria-label="Share links">
              {list.map((link) => (
                <LinkCard
                  key={link.id}
                  link={link}
                  setName={set.name}
                  mail={mail}
                  onDelete={() => setDeleting(link)}
                  onSave={async (draft) => {
                    const changed = inputOf(draft, draftOf(link));
                    if (Object.keys(changed).length > 0) await shareLinksApi.update(teamId, link.id, changed);
                    await links.reload();
                  }}
                />
              ))}
            </ul>
          ) : null}
          <section class="share-new" aria-labelledby={newId}>
            <h3 id={newId}>New link</h3>
            <LinkForm
              initial={emptyDraft()}
              resetAfter={emptyDraft()}
              submitLabel="Create link"
              mail={mail}
              onSubmit={async (draft) => {
                await shareLinksApi.create(teamId, set.id, inputOf(draft));
                toast("Share link created.", "success");
                await links.reload();
              }}
            />
          </section>
        </div>
      </Dialog>
      <ConfirmDialog
        open={deleting !== null}
        title="Delete this share link?"
        confirmLabel="Delete link"
        onClose={() => setDeleting(null)}
        onConfirm={async () => {
          await shareLinksApi.remove(teamId, deleting!.id);
          toast("Share link deleted.", "success");
          await links.reload();
        }}
      >
        <p>
          “{deleting?.name || "Unnamed link"}” stops working at once: anyone who opens it, or an image embedding it, gets “not found”. The set and its todos
          stay. This cannot be undone.
        </p>
      </ConfirmDialog>
    </>
  );
}
