import { Elysia, t } from "elysia";
import type { AppContext } from "../../context/context.ts";
import { REFETCH_MESSAGE } from "../../contract/realtime.ts";
import { forbidden } from "../../shared/errors.ts";
import { roleIn } from "../permissions/actor.ts";
import { wsSessionRowId } from "../session/session.service.ts";
import { refreshedWsSession, requireWsSession } from "../session/request-session.ts";
import { wsCookieOf } from "../session/ws-cookie.ts";
import type { Subscription } from "./realtime-hub.ts";
import { parseId, sseResponse, startHeartbeat } from "./sse-stream.ts";

/**
 * 401 without a workspace session, 403 outside the team: checked before any stream or upgrade.
 * A cookie rides along with cross-site WebSocket upgrades too, so a foreign Origin is refused.
 * Answers the session's row id.
 */
async function authorize(ctx: AppContext, request: Request, teamId: string): Promise<string> {
  const session = await requireWsSession(ctx, request, "not-foreign");
  // As for every workspace call (workspace.plugin.ts): a team the session does not list yet is asked about.
  if (roleIn(session, teamId) === null && roleIn(await refreshedWsSession(ctx, session), teamId) === null) throw forbidden("not a member of this team");
  return session.id;
}

/**
 * ARCHITECTURE section 4 "Realtime": SSE and WebSocket over the same per-team bus. Who may see
 * each event is the realtime hub's to decide (realtime-hub.ts); these routes only check the
 * caller at the door and carry the hub's frames.
 */
export function realtimeRoutes(ctx: AppContext) {
  const Query = t.Object({ teamId: t.String({ minLength: 1, maxLength: 200 }), since: t.Optional(t.String({ maxLength: 20 })) });
  const sockets = new WeakMap<object, () => void>();
  const hub = ctx.workspace.realtime;
  return new Elysia({ name: "realtime-routes" })
    .get(
      "/api/realtime/sse",
      async ({ request, query, server }) => {
        const sessionId = await authorize(ctx, request, query.teamId);
        return sseResponse(ctx, { request, server, join: (since, sink) => hub.joinAsMember(sessionId, query.teamId, since, sink) });
      },
      { query: Query },
    )
    .ws("/api/realtime/ws", {
      query: Query,
      async beforeHandle({ request, query }) {
        await authorize(ctx, request, query.teamId);
      },
      async open(ws) {
        const raw = ws.raw;
        const { request, query } = ws.data;
        const teamId = query.teamId;
        let closed = false;
        let subscription: Subscription | null = null;
        let ping: Timer | undefined;
        let counted: (() => void) | undefined;
        const close = () => {
          if (closed) return;
          closed = true;
          subscription?.leave();
          raw.close(1008, "session ended");
        };
        // Set before the hub is asked: a socket that closes while it joins leaves at once.
        sockets.set(raw, () => {
          closed = true;
          clearInterval(ping);
          subscription?.leave();
          counted?.();
        });
        const cookie = wsCookieOf(ctx, request);
        // The hub reads the session itself: none live under that id, no stream.
        const joined = await hub.joinAsMember(cookie ? wsSessionRowId(cookie) : "", teamId, parseId(query.since), {
          send: (wire) => void (closed || raw.send(wire.json)),
          refetch: (lastId) => void raw.send(JSON.stringify({ type: REFETCH_MESSAGE, teamId, lastId })),
          close,
        });
        if (!joined) return close();
        if (closed) return joined.leave();
        subscription = joined;
        counted = ctx.metrics.connectionOpened("websocket");
        ping = startHeartbeat(ctx, joined, () => raw.ping());
      },
      close(ws) {
        sockets.get(ws.raw)?.();
        sockets.delete(ws.raw);
      },
      message() {
        // Read-only channel: clients send nothing that matters.
      },
    });
}
