import { useLocation } from "preact-iso";
import { type Interaction, interactionApi } from "../../api/apps.ts";
import { ApiError } from "../../api/http.ts";
import { Card } from "../../components/card.tsx";
import { EmptyState } from "../../components/empty-state.tsx";
import { useRequiredUser } from "../../lib/session.ts";
import { useLoad } from "../../lib/use-load.ts";
import { ConsentForm } from "./consent-form.tsx";
import { ExpiredRequest } from "./expired-request.tsx";

/**
 * The consent step of the authorize endpoint (`/consent?interaction=<id>`): which app asks, what
 * it may do, and the user's answer, which sends the browser back to the app.
 */
export function ConsentPage() {
  const user = useRequiredUser();
  const { query } = useLocation();
  const id = query.interaction ?? "";
  const loaded = useLoad(async (): Promise<Interaction | null | undefined> => {
    if (!user || !id) return undefined;
    try {
      return await interactionApi.get(id);
    } catch (e) {
      // Unknown, expired, already answered or someone else's: the same 404.
      if (e instanceof ApiError && e.status === 404) return null;
      throw e;
    }
  }, [id, user?.id]);
  if (!id) return <ExpiredRequest />;
  if (!user || (loaded.loading && loaded.data === undefined)) return <p class="muted">Loading…</p>;
  if (loaded.data === null) return <ExpiredRequest />;
  if (!loaded.data) return <EmptyState title="This request could not be loaded">{loaded.error}</EmptyState>;
  const interaction = loaded.data;
  return (
    <div class="narrow">
      <Card
        title={`Allow ${interaction.client.name} to use your account?`}
        actions={interaction.client.is_verified ? <span class="badge badge-success">Verified app</span> : null}
      >
        <ConsentForm id={id} interaction={interaction} username={user.username} onGone={() => loaded.reload()} />
      </Card>
    </div>
  );
}
