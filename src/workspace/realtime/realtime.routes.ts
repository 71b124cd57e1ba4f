import { Elysia, t } from "elysia";
import type { AppContext } from "../../context/context.ts";
import { forbidden } from "../../shared/errors.ts";
import { canViewSet } from "../permissions/permissions.policy.ts";
import { permissionsOf } from "../permissions/permissions.resolve.ts";
import { confirmedSession, needsConfirmation } from "../session/session-check.ts";
import { findWsSession, findWsSessionById } from "../session/session.service.ts";
import { refreshedWsSession, requireWsSession } from "../session/request-session.ts";
import { wsCookieOf } from "../session/ws-cookie.ts";
import { type MemberActor, memberIn, roleIn } from "../permissions/actor.ts";
import { type RealtimeEvent, REFETCH_MESSAGE } from "../../contract/realtime.ts";
import { HEARTBEAT_MS, parseId, sseResponse } from "./sse-stream.ts";

/**
 * The caller behind a realtime request (by the session's row id), or null when their workspace
 * session has ended or they are no longer a member of the team. Read afresh before every push
 * (conventions principle 8).
 */
function liveCaller(ctx: AppContext, sessionId: string, teamId: string): MemberActor | null {
  const session = findWsSessionById(ctx, sessionId);
  return session ? memberIn(session, teamId) : null;
}

/**
 * A stream makes no requests: its pushes and heartbeats ask the IdP again once its last answer is
 * older than the bound, and the next push or beat sees the result.
 */
function kickConfirmation(ctx: AppContext, caller: MemberActor): void {
  if (needsConfirmation(ctx, caller.session)) void confirmedSession(ctx, caller.session);
}

/** For heartbeats: the caller is still there (and the IdP's answer is kept fresh). */
function stillThere(ctx: AppContext, sessionId: string, teamId: string): boolean {
  const caller = liveCaller(ctx, sessionId, teamId);
  if (caller) kickConfirmation(ctx, caller);
  return caller !== null;
}

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

// Per event, computed once for all subscribers: who may view its set depends only on the role,
// and the wire text is the same for everyone.
const viewByRole = new WeakMap<RealtimeEvent, Map<string, boolean>>();
const wireText = new WeakMap<RealtimeEvent, string>();

function roleMayView(ctx: AppContext, caller: MemberActor, event: RealtimeEvent): boolean {
  if (event.setId === null) return true;
  let byRole = viewByRole.get(event);
  if (!byRole) viewByRole.set(event, (byRole = new Map()));
  let may = byRole.get(caller.role);
  if (may === undefined) byRole.set(caller.role, (may = canViewSet(caller, permissionsOf(ctx, caller, event.setId))));
  return may;
}

function textOf(event: RealtimeEvent): string {
  let text = wireText.get(event);
  if (text === undefined) wireText.set(event, (text = JSON.stringify(event)));
  return text;
}

/** Whether the subscriber may see this event now: live session, still a member, may view its set. */
function visibleTo(ctx: AppContext, sessionId: string, event: RealtimeEvent): "send" | "skip" | "close" {
  const caller = liveCaller(ctx, sessionId, event.teamId);
  if (!caller) return "close";
  kickConfirmation(ctx, caller);
  return roleMayView(ctx, caller, event) ? "send" : "skip";
}

export const sseFrame = (e: RealtimeEvent) => `id: ${e.id}\nevent: ${e.type}\ndata: ${textOf(e)}\n\n`;

/** ARCHITECTURE section 4 "Realtime": SSE and WebSocket over the same per-team bus. */
export function realtimeRoutes(ctx: AppContext) {
  const Query = t.Object({ teamId: t.String({ minLength: 1, maxLength: 200 }), since: t.Optional(t.String({ maxLength: 20 })) });
  const sockets = new WeakMap<object, () => void>();
  return new Elysia({ name: "realtime-routes" })
    .get(
      "/api/realtime/sse",
      async ({ request, query, server }) => {
        const sessionId = await authorize(ctx, request, query.teamId);
        return sseResponse(ctx, {
          request,
          server,
          teamId: query.teamId,
          verdict: (event) => visibleTo(ctx, sessionId, event),
          alive: () => stillThere(ctx, sessionId, query.teamId),
          frame: sseFrame,
        });
      },
      { query: Query },
    )
    .ws("/api/realtime/ws", {
      query: Query,
      async beforeHandle({ request, query }) {
        await authorize(ctx, request, query.teamId);
      },
      open(ws) {
        const raw = ws.raw;
        const { request, query } = ws.data;
        const cookie = wsCookieOf(ctx, request);
        const sessionId = (cookie && findWsSession(ctx, cookie)?.id) ?? "";
        const teamId = query.teamId;
        let closed = false;
        const close = () => {
          if (closed) return;
          closed = true;
          raw.close(1008, "session ended");
        };
        const push = (event: RealtimeEvent) => {
          if (closed) return;
          const verdict = visibleTo(ctx, sessionId, event);
          if (verdict === "close") return close();
          if (verdict === "send") raw.send(textOf(event));
        };
        if (!liveCaller(ctx, sessionId, teamId)) return close();
        const lastId = parseId(query.since);
        if (lastId !== null) {
          const missed = ctx.bus.since(teamId, lastId);
          if (missed === null) {
            const now = ctx.bus.lastEventId(teamId);
            raw.send(JSON.stringify({ type: REFETCH_MESSAGE, teamId, lastId: now }));
          } else for (const event of missed) push(event);
        }
        if (closed) return;
        const unsubscribe = ctx.bus.subscribe(teamId, push);
        const counted = ctx.metrics.connectionOpened("websocket");
        const ping = setInterval(() => {
          if (!stillThere(ctx, sessionId, teamId)) return close();
          raw.ping();
        }, HEARTBEAT_MS);
        sockets.set(raw, () => {
          closed = true;
          clearInterval(ping);
          unsubscribe();
          counted();
        });
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
