import type { SharedSet } from "../../api/share-links.ts";
import { CAPABILITY_LABELS, grantedOf } from "../workspace/share/capabilities.ts";
import type { SharedLiveStatus } from "./use-shared-live.ts";

type Props = {
  shared: SharedSet;
  counts: { total: number; completed: number };
  live: SharedLiveStatus;
  /** The email the visitor opened a restricted link with. */
  email: string | undefined;
  onForget: () => void;
};

const LIVE_TEXT: Record<SharedLiveStatus, string> = { connecting: "Connecting…", live: "Live", offline: "Offline" };

/** The shared set's name, progress, live status, and what this link lets the visitor do. */
export function SharedHeader({ shared, counts, live, email, onForget }: Props) {
  const p = shared.permissions;
  const allowed = grantedOf(p);
  return (
    <header class="share-head">
      <div class="grow">
        <p class="share-kicker">Shared todo list</p>
        <h1 class="break">{shared.set.name}</h1>
        {p.canView ? (
          <p class="muted small" data-testid="shared-status">
            {counts.completed} of {counts.total} done
          </p>
        ) : null}
      </div>
      <div class="share-head-side">
        {p.canView ? (
          <span class={`ws-live ws-live-${live}`} role="status">
            {LIVE_TEXT[live]}
          </span>
        ) : null}
        {email ? (
          <span class="small muted">
            Opened as <strong>{email}</strong>{" "}
            <button type="button" class="link-button" onClick={onForget}>
              Use another email
            </button>
          </span>
        ) : null}
      </div>
      <p class="share-allowed small">
        {allowed.length === 0 ? (
          "This link allows nothing at the moment."
        ) : (
          <>
            <span class="muted">This link lets you: </span>
            {allowed.map((key) => (
              <span key={key} class="badge share-cap">
                {CAPABILITY_LABELS[key].label}
              </span>
            ))}
          </>
        )}
      </p>
      {!p.canView && allowed.length > 0 ? (
        <p class="notice share-blind">
          This link does not show the list itself, only what you may do with it: {allowed.map((key) => CAPABILITY_LABELS[key].label.toLowerCase()).join(", ")}.
        </p>
      ) : null}
    </header>
  );
}
