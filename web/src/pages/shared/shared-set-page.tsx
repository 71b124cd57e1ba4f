import { useEffect, useState } from "preact/hooks";
import { useRoute } from "preact-iso";
import { ApiError } from "../../api/http.ts";
import { type SharedSet, shareLinksApi } from "../../api/share-links.ts";
import { Button } from "../../components/button.tsx";
import { EmptyState } from "../../components/empty-state.tsx";
import { toast } from "../../lib/toasts.ts";
import { counts } from "../workspace/model/todo-tree.ts";
import { EmailGate } from "./email-gate.tsx";
import { rememberEmail, rememberedEmail } from "./email-memory.ts";
import { SharedHeader } from "./shared-header.tsx";
import { SharedTree } from "./shared-tree.tsx";
import { useSharedLive } from "./use-shared-live.ts";

type View =
  | { phase: "loading" }
  | { phase: "ask"; refused: string | null }
  | { phase: "missing" }
  | { phase: "failed"; message: string }
  | { phase: "ready"; shared: SharedSet };

const isDenied = (e: unknown) => e instanceof ApiError && e.status === 403 && e.error === "Access denied";

/** Route `/s/:token`: a set published through a share link (spec 2 section 4.4), no sign-in needed. */
export function SharedSetPage() {
  const token = useRoute().params.token ?? "";
  const [email, setEmail] = useState<string | undefined>(() => rememberedEmail(token));
  const [view, setView] = useState<View>({ phase: "loading" });

  const load = async (withEmail = email) => {
    try {
      setView({ phase: "ready", shared: await shareLinksApi.open(token, withEmail) });
    } catch (e) {
      if (isDenied(e)) setView({ phase: "ask", refused: withEmail ? (e as Error).message : null });
      else if (e instanceof ApiError && e.status === 404) setView({ phase: "missing" });
      // A passing failure while the list is shown keeps it and says so.
      else if (view.phase === "ready") toast((e as Error).message, "error");
      else setView({ phase: "failed", message: (e as Error).message });
    }
  };
  useEffect(() => {
    const remembered = rememberedEmail(token);
    setEmail(remembered);
    setView({ phase: "loading" });
    void load(remembered);
  }, [token]);

  // Without canView there is nothing on the page to keep current (and the stream refuses).
  const following = view.phase === "ready" && view.shared.permissions.canView;
  const live = useSharedLive(following ? shareLinksApi.eventsUrl(token, email) : null, () => void load());

  const unlock = async (typed: string) => {
    try {
      const shared = await shareLinksApi.open(token, typed);
      rememberEmail(token, typed);
      setEmail(typed);
      setView({ phase: "ready", shared });
    } catch (e) {
      if (e instanceof ApiError && e.status === 404) setView({ phase: "missing" });
      throw e;
    }
  };

  if (view.phase === "loading") return <p class="muted share-loading">Loading…</p>;
  if (view.phase === "missing")
    return <EmptyState title="This link does not exist or was deleted.">Ask the person who shared it with you for a new link.</EmptyState>;
  if (view.phase === "failed")
    return (
      <EmptyState title="This list cannot be opened right now" action={<Button onClick={() => void load()}>Try again</Button>}>
        {view.message}
      </EmptyState>
    );
  if (view.phase === "ask") return <EmailGate initial={email ?? ""} refused={view.refused} onSubmit={unlock} />;

  const { shared } = view;
  return (
    <div class="share-page">
      <SharedHeader
        shared={shared}
        counts={counts(shared.todos)}
        live={live}
        email={shared.requiresEmail ? email : undefined}
        onForget={() => {
          rememberEmail(token, undefined);
          setEmail(undefined);
          setView({ phase: "ask", refused: null });
        }}
      />
      <SharedTree token={token} email={email} shared={shared} reload={() => load()} />
    </div>
  );
}
