import { useEffect, useState } from "preact/hooks";
import { useRoute } from "preact-iso";
import { ApiError } from "../../api/http.ts";
import { type SharedSet, shareLinksApi, type Visitor } from "../../api/share-links.ts";
import { Button } from "../../components/button.tsx";
import { EmptyState } from "../../components/empty-state.tsx";
import { toast } from "../../lib/toasts.ts";
import { counts } from "../workspace/model/todo-tree.ts";
import { EmailCodeGate } from "./email-code-gate.tsx";
import { EmailGate } from "./email-gate.tsx";
import { rememberedVisitor, rememberVisitor } from "./email-memory.ts";
import { SharedHeader } from "./shared-header.tsx";
import { SharedTree } from "./shared-tree.tsx";
import { useSharedLive } from "./use-shared-live.ts";

type View =
  | { phase: "loading" }
  | { phase: "ask"; refused: string | null; code: boolean }
  | { phase: "missing" }
  | { phase: "failed"; message: string }
  | { phase: "ready"; shared: SharedSet };

const isDenied = (e: unknown) => e instanceof ApiError && e.status === 403 && e.error === "Access denied";
/** Issue 44: the refusal says the link wants a code mailed to the address, not just the address. */
const wantsCode = (e: unknown) => e instanceof ApiError && e.body?.requiresEmailCode === true;

/** Route `/s/:token`: a set published through a share link (spec 2 section 4.4), no sign-in needed. */
export function SharedSetPage() {
  const token = useRoute().params.token ?? "";
  const [visitor, setVisitor] = useState<Visitor>(() => rememberedVisitor(token));
  const email = visitor.email;
  const [view, setView] = useState<View>({ phase: "loading" });

  const load = async (as = visitor) => {
    try {
      setView({ phase: "ready", shared: await shareLinksApi.open(token, as) });
    } catch (e) {
      // An expired code's grant is no refusal of the address: the code step just comes again.
      if (isDenied(e)) setView({ phase: "ask", refused: as.email && !wantsCode(e) ? (e as Error).message : null, code: wantsCode(e) });
      else if (e instanceof ApiError && e.status === 404) setView({ phase: "missing" });
      // A passing failure while the list is shown keeps it and says so.
      else if (view.phase === "ready") toast((e as Error).message, "error");
      else setView({ phase: "failed", message: (e as Error).message });
    }
  };
  useEffect(() => {
    const remembered = rememberedVisitor(token);
    setVisitor(remembered);
    setView({ phase: "loading" });
    void load(remembered);
  }, [token]);

  // Without canView there is nothing on the page to keep current (and the stream refuses).
  const following = view.phase === "ready" && view.shared.permissions.canView;
  const live = useSharedLive(following ? shareLinksApi.eventsUrl(token, visitor) : null, () => void load());

  const unlock = async (as: Visitor) => {
    try {
      const shared = await shareLinksApi.open(token, as);
      rememberVisitor(token, as);
      setVisitor(as);
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
  if (view.phase === "ask")
    return view.code ? (
      <EmailCodeGate token={token} initial={email ?? ""} onVerified={(typed, grant) => unlock({ email: typed, grant })} />
    ) : (
      <EmailGate initial={email ?? ""} refused={view.refused} onSubmit={(typed) => unlock({ email: typed })} />
    );

  const { shared } = view;
  return (
    <div class="share-page">
      <SharedHeader
        shared={shared}
        counts={counts(shared.todos)}
        live={live}
        email={shared.requiresEmail ? email : undefined}
        onForget={() => {
          rememberVisitor(token, {});
          setVisitor({});
          setView({ phase: "ask", refused: null, code: shared.requiresEmailCode });
        }}
      />
      <SharedTree token={token} visitor={visitor} shared={shared} reload={() => load()} />
    </div>
  );
}
