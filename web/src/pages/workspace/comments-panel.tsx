import { useEffect, useLayoutEffect, useState } from "preact/hooks";
import { type Comment, type Permissions, type Todo, workspaceApi } from "../../api/workspace.ts";
import { Button } from "../../components/button.tsx";
import { FormError } from "../../components/form-error.tsx";
import { formatTime } from "../../lib/format.ts";
import { toast } from "../../lib/toasts.ts";

type Props = { teamId: string; todo: Todo; userId: string; permissions: Permissions };

/** A todo's comments (ARCHITECTURE section 4): read, add, delete own or, with the right, any. */
export function CommentsPanel({ teamId, todo, userId, permissions }: Props) {
  const [comments, setComments] = useState<Comment[] | null>(null);
  const [body, setBody] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const load = () => workspaceApi.comments(teamId, todo.id).then(setComments, (e: Error) => setError(e.message));
  // The todo's commentCount changes with every live comment event; the panel follows it.
  useEffect(() => void load(), [todo.id, todo.commentCount]);
  // Opening the comments is asking to write one (issue 42); Escape goes back to the todo.
  useLayoutEffect(() => document.getElementById(`comment-${todo.id}`)?.focus(), []);

  const add = async () => {
    if (!body.trim()) return setError("Comment is required");
    setBusy(true);
    try {
      await workspaceApi.addComment(teamId, todo.id, body.trim());
      setBody("");
      setError(null);
      await load();
    } catch (e) {
      setError((e as Error).message);
    } finally {
      setBusy(false);
    }
  };
  const remove = async (id: string) => {
    try {
      await workspaceApi.deleteComment(teamId, id);
      await load();
    } catch (e) {
      toast((e as Error).message, "error");
    }
  };

  return (
    <div class="ws-comments">
      {comments?.length === 0 ? <p class="empty-inline">No comments yet.</p> : null}
      <ul class="rows" aria-label={`Comments on ${todo.title}`}>
        {(comments ?? []).map((c) => (
          <li key={c.id} class="row">
            <div class="grow">
              <span class="row-meta">
                {c.author.name || c.author.username || "Someone"} · <time dateTime={c.createdAt}>{formatTime(c.createdAt)}</time>
              </span>
              {/* The server's sanitized rendering of the Markdown (issue 42): its subset has nothing executable. */}
              <div class="break ws-comment-body" dangerouslySetInnerHTML={{ __html: c.bodyHtml }} />
            </div>
            {(c.userId === userId && permissions.delete_own_comments) || permissions.delete_any_comment ? (
              <Button variant="ghost" onClick={() => void remove(c.id)} aria-label="Delete comment">
                Delete
              </Button>
            ) : null}
          </li>
        ))}
      </ul>
      {permissions.comment ? (
        <form
          class="input-row"
          onSubmit={(e) => {
            e.preventDefault();
            void add();
          }}
        >
          <label class="visually-hidden" for={`comment-${todo.id}`}>
            New comment
          </label>
          {/* Several lines, for Markdown's lists: Enter sends as before, Shift+Enter starts a new line. */}
          <textarea
            id={`comment-${todo.id}`}
            class="input ws-comment-input"
            rows={1}
            value={body}
            placeholder="Write a comment"
            maxLength={10_000}
            aria-describedby={`comment-hint-${todo.id}`}
            onInput={(e) => setBody(e.currentTarget.value)}
            onKeyDown={(e) => {
              if (e.key !== "Enter" || e.shiftKey || e.isComposing) return;
              e.preventDefault();
              void add();
            }}
          />
          <Button type="submit" variant="secondary" busy={busy}>
            Comment
          </Button>
          <p class="field-hint ws-comment-hint" id={`comment-hint-${todo.id}`}>
            Markdown: **bold**, _italic_, `code`, [links](https://…), lists. Shift+Enter for a new line.
          </p>
        </form>
      ) : null}
      <FormError message={error} />
    </div>
  );
}
