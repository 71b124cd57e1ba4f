import type { AppContext } from "../../context/context.ts";
import type { WorkspaceRole } from "../../contract/workspace.ts";
import { type RealtimeEvent, SHARED_SET_EVENT_TYPES } from "../../contract/realtime.ts";
import { afterCommit } from "../../db/tx.ts";
import { CLUSTER_TOPICS } from "../../shared/cluster-topics.ts";
import { type MemberActor, memberIn } from "../permissions/actor.ts";
import { canViewSet } from "../permissions/permissions.policy.ts";
import type { Permissions } from "../permissions/permissions.ts";
import { rolePermissions } from "../permissions/permissions.resolve.ts";
import { CONFIRM_EVERY_MS, confirmedSession, needsConfirmation } from "../session/session-check.ts";
import { findWsSessionById } from "../session/session.service.ts";
import { findTeamLink, type ShareLinkRow } from "../storage/share-links.repo.ts";
import type { WsSessionRow } from "../storage/session.table.ts";

/** An event as it leaves, made once for every subscriber: JSON text (WebSocket) and an SSE frame. */
export type Wire = { json: string; frame: Uint8Array };
/** One open connection, driven by the hub. `close` may be called more than once. */
export type Sink = { send(wire: Wire): void; refetch(lastId: number): void; close(): void };
/** What a connection holds of its place in the hub: leave on close, beat on each heartbeat (false: it was closed). */
export type Subscription = { leave(): void; beat(): Promise<boolean> };
/** Whose rights changed: sessions (signed out, revoked, teams or roles changed) and share links (deleted, changed). */
export type RightsChange = { sessions?: string[]; links?: string[] };

// `after`: the last event id of the team when it joined, so an event already replayed is not sent twice.
// `held`: live events kept back while what it missed is still being replayed, then sent in order.
type Member = { kind: "member"; teamId: string; actor: MemberActor; sink: Sink; after: number; held: Wire[] | null };
/**
 * When the link, as read now, admits this visitor until (their email, and issue 44's emailed-code
 * grant: the caller's check, share-links/email-grant.ts), or null when it no longer does.
 */
export type Admission = (link: ShareLinkRow) => number | null;
// `until`: when the visitor's admission ends (a code's grant), Infinity for a link that asks none.
type Visitor = { kind: "visitor"; teamId: string; setId: string; linkId: string; admits: Admission; until: number; sink: Sink; after: number };
type Team = { members: Set<Member>; visitors: Map<string, Set<Visitor>>; stop: () => void };

const PUBLIC_EVENTS = new Set<string>(SHARED_SET_EVENT_TYPES);
const encoder = new TextEncoder();

export function wireOf(event: RealtimeEvent): Wire {
  const json = JSON.stringify(event);
  return { json, frame: encoder.encode(`id: ${event.id}\nevent: ${event.type}\ndata: ${json}\n\n`) };
}

/** Whether the link, as read now, still opens to the visitor: its set, viewing, and their admission (email, code's grant). */
const linkStillOpens = (link: ShareLinkRow | undefined, v: Visitor): boolean => {
  if (link === undefined || link.setId !== v.setId || !link.canView) return false;
  const until = v.admits(link);
  if (until === null) return false;
  v.until = until;
  return true;
};

/**
 * Who hears a team's events (ARCHITECTURE section 4 "Realtime", conventions principle 8), per
 * process. Each connection's right is checked when it joins and kept here: the member's live
 * session (role, expiry) and the visitor's link. A fan-out then reads no session or link: it reads
 * the set's permissions once and writes one prepared text to every subscriber. Whatever can end a
 * right tells the hub, after its commit, in every process (`rightsChanged`); the hub reads again
 * just those rows and closes who lost it, before the next event.
 */
export function createRealtimeHub(ctx: AppContext) {
  const teams = new Map<string, Team>();
  const bySession = new Map<string, Set<Member>>();
  const byLink = new Map<string, Set<Visitor>>();

  const index = <K, V>(map: Map<K, Set<V>>, key: K): Set<V> => {
    let set = map.get(key);
    if (!set) map.set(key, (set = new Set()));
    return set;
  };
  const unindex = <K, V>(map: Map<K, Set<V>>, key: K, value: V) => {
    const set = map.get(key);
    if (set?.delete(value) && set.size === 0) map.delete(key);
  };

  const leave = (sub: Member | Visitor) => {
    const team = teams.get(sub.teamId);
    if (sub.kind === "member") {
      team?.members.delete(sub);
      unindex(bySession, sub.actor.session.id, sub);
    } else {
      if (team) unindex(team.visitors, sub.setId, sub);
      unindex(byLink, sub.linkId, sub);
    }
    if (team && team.members.size === 0 && team.visitors.size === 0) {
      team.stop();
      teams.delete(sub.teamId);
    }
  };
  const end = (sub: Member | Visitor) => {
    leave(sub);
    sub.sink.close();
  };
  /** Whether the member is still in its team's stream (not left, not ended). */
  const isIn = (m: Member) => teams.get(m.teamId)?.members.has(m) === true;

  /** The member's session as read now (or as the IdP just confirmed it): their role follows, or they go. */
  const renew = (m: Member, session: WsSessionRow | null): boolean => {
    const actor = session && memberIn(session, m.teamId);
    if (!actor) return (end(m), false);
    m.actor = actor;
    return true;
  };

  /**
   * A stream makes no requests: the once-a-minute question to the IdP (session-check.ts) is asked
   * from here once the session's last answer is older than that, and its answer applied.
   */
  const confirming = new Set<string>();
  const confirm = (m: Member) => {
    const id = m.actor.session.id;
    if (confirming.has(id)) return;
    const answer = confirmedSession(ctx, m.actor.session);
    if (!(answer instanceof Promise)) return;
    confirming.add(id);
    void answer
      .then(
        (session) => {
          for (const other of [...(bySession.get(id) ?? [])]) renew(other, session);
        },
        () => {},
      )
      .finally(() => confirming.delete(id));
  };

  /**
   * Fan-outs and rights changes run one at a time, in the order they came: a fan-out may wait for
   * its set's permissions, and every subscriber must get the events in order and lose a right
   * before the next event. Work that waits for nothing runs at once.
   */
  const queue: (() => Promise<void> | undefined)[] = [];
  let draining = false;
  const drain = async () => {
    draining = true;
    try {
      for (let work = queue.shift(); work; work = queue.shift()) {
        try {
          const pending = work();
          if (pending !== undefined) await pending;
        } catch (e) {
          // One failed read must not stop the events of every team.
          ctx.log.warn("realtime: a fan-out or rights change failed", { error: (e as Error).message });
        }
      }
    } finally {
      draining = false;
    }
  };
  const inTurn = (work: () => Promise<void> | undefined) => {
    queue.push(work);
    if (!draining) void drain();
  };

  /** The event to the team's subscribers; `perms`: what each role may do in the event's set, read for it (null: no set). */
  const deliver = (event: RealtimeEvent, perms: ((role: WorkspaceRole) => Permissions) | null) => {
    const team = teams.get(event.teamId);
    if (!team) return;
    const now = ctx.clock.now();
    const wire = wireOf(event);
    // Who may view the event's set depends only on the role: decided once per role, not per subscriber.
    const byRole = new Map<WorkspaceRole, boolean>();
    for (const m of team.members) {
      if (event.id <= m.after) continue;
      const { actor } = m;
      if (actor.session.expiresAt <= now) {
        end(m);
        continue;
      }
      let may = byRole.get(actor.role);
      if (may === undefined) byRole.set(actor.role, (may = perms === null || canViewSet(actor, perms(actor.role))));
      if (may) {
        if (m.held) m.held.push(wire);
        else send(m, wire);
      }
      if (now - actor.session.validatedAt >= CONFIRM_EVERY_MS) confirm(m);
    }
    if (event.setId === null || !PUBLIC_EVENTS.has(event.type)) return;
    for (const v of team.visitors.get(event.setId) ?? []) {
      if (event.id <= v.after) continue;
      // The grant of their emailed code has ended: the stream ends with it.
      if (v.until <= now) {
        end(v);
        continue;
      }
      send(v, wire);
      // The link's set is gone: its page is told so, and its stream ends (the link answers `Set not found` now).
      if (event.type === "set:deleted") end(v);
    }
  };
  const fanOut = (event: RealtimeEvent): Promise<void> | undefined => {
    const team = teams.get(event.teamId);
    if (!team) return;
    // Members' rights in the set are read (once) only when there are members to decide for.
    if (event.setId === null || team.members.size === 0) return void deliver(event, null);
    return rolePermissions(ctx, event.teamId, event.setId).then((perms) => deliver(event, perms));
  };
  const send = (sub: Member | Visitor, wire: Wire) => {
    try {
      sub.sink.send(wire);
    } catch {
      // A connection that broke meanwhile: it goes, the others still get the event.
      end(sub);
    }
  };

  /**
   * Events may have been lost (the bus's `gap`): every stream of the team refetches, in turn with
   * the events, and, as a rights change may have been lost with them, has its right read again.
   */
  const refetchTeam = (teamId: string): Promise<void> | undefined => {
    const team = teams.get(teamId);
    if (!team) return;
    const lastId = ctx.bus.lastEventId(teamId);
    const visitors = [...team.visitors.values()].flatMap((set) => [...set]);
    for (const sub of [...team.members, ...visitors]) {
      try {
        sub.sink.refetch(lastId);
      } catch {
        end(sub);
      }
    }
    return apply({ sessions: [...new Set([...team.members].map((m) => m.actor.session.id))], links: [...new Set(visitors.map((v) => v.linkId))] });
  };
  const teamOf = (teamId: string): Team => {
    let team = teams.get(teamId);
    if (!team) {
      const stop = ctx.bus.subscribe(
        teamId,
        (event) => inTurn(() => fanOut(event)),
        () => inTurn(() => refetchTeam(teamId)),
      );
      teams.set(teamId, (team = { members: new Set(), visitors: new Map(), stop }));
    }
    return team;
  };

  /** The events after `since` still in the replay buffer (none when `since` is null), or a `refetch` when they are gone. */
  const missedSince = (teamId: string, since: number | null, sink: Sink): RealtimeEvent[] => {
    if (since === null) return [];
    const missed = ctx.bus.since(teamId, since);
    if (missed === null) sink.refetch(ctx.bus.lastEventId(teamId));
    return missed ?? [];
  };

  /** The missed events the member may see, read against each set's permissions as they are now. */
  const replayToMember = async (m: Member, missed: RealtimeEvent[]) => {
    const perms = new Map<string, (role: WorkspaceRole) => Permissions>();
    for (const { setId } of missed) if (setId !== null && !perms.has(setId)) perms.set(setId, await rolePermissions(ctx, m.teamId, setId));
    const { actor } = m;
    if (!isIn(m)) return;
    for (const event of missed)
      if (event.setId === null || canViewSet(actor, (perms.get(event.setId) as (role: WorkspaceRole) => Permissions)(actor.role))) m.sink.send(wireOf(event));
  };

  /** Rights changes heard so far: a join that read a session before one came reads it again. */
  let rightsMoves = 0;
  const apply = async ({ sessions = [], links = [] }: RightsChange) => {
    for (const id of sessions) {
      if (!bySession.has(id)) continue;
      const session = await findWsSessionById(ctx, id);
      for (const m of [...(bySession.get(id) ?? [])]) renew(m, session);
    }
    for (const id of links) {
      const visitors = byLink.get(id);
      if (!visitors) continue;
      const first = visitors.values().next().value as Visitor;
      const link = await findTeamLink(ctx, first.teamId, id);
      for (const v of [...(byLink.get(id) ?? [])]) if (!linkStillOpens(link, v)) end(v);
    }
  };
  const heard = (change: RightsChange) => {
    rightsMoves++;
    inTurn(() => apply(change));
  };
  ctx.cluster.on(CLUSTER_TOPICS.realtimeRights, (change) => heard(change as RightsChange));

  return {
    /**
     * A member's stream of `teamId` with their live session `sessionId`, after replaying what came
     * after `since`; null (and nothing sent) when the session has ended or is not in the team.
     */
    async joinAsMember(sessionId: string, teamId: string, since: number | null, sink: Sink): Promise<Subscription | null> {
      // What is published while the session is read is replayed: the stream starts at this call.
      const from = since ?? ctx.bus.lastEventId(teamId);
      let session: WsSessionRow | null;
      let seen: number;
      do {
        seen = rightsMoves;
        session = await findWsSessionById(ctx, sessionId);
      } while (seen !== rightsMoves);
      const actor = session && memberIn(session, teamId);
      if (!actor) return null;
      // In the team from here, with live events held until what it missed is sent: none is lost or out of order.
      const m: Member = { kind: "member", teamId, actor, sink, after: ctx.bus.lastEventId(teamId), held: [] };
      const missed = missedSince(teamId, from, sink);
      teamOf(teamId).members.add(m);
      index(bySession, sessionId).add(m);
      if (missed.length > 0) await replayToMember(m, missed);
      const held = m.held ?? [];
      m.held = null;
      for (const wire of held) if (isIn(m)) send(m, wire);
      // Its right ended while it joined: the hub has closed it.
      if (!isIn(m)) return null;
      return {
        leave: () => leave(m),
        async beat() {
          if (!isIn(m)) return false;
          const current = await findWsSessionById(ctx, sessionId);
          if (!isIn(m) || !renew(m, current)) return false;
          if (needsConfirmation(ctx, m.actor.session)) confirm(m);
          return true;
        },
      };
    },

    /**
     * A share link's public stream of its set, for a visitor the caller found `admits` admitted;
     * `admits` is asked again whenever the link changes, and the stream ends when the admission does.
     */
    joinAsVisitor(link: ShareLinkRow, admits: Admission, since: number | null, sink: Sink): Subscription {
      const until = admits(link) ?? 0;
      const after = ctx.bus.lastEventId(link.teamId);
      const v: Visitor = { kind: "visitor", teamId: link.teamId, setId: link.setId, linkId: link.id, admits, until, sink, after };
      for (const e of missedSince(link.teamId, since, sink)) if (e.setId === link.setId && PUBLIC_EVENTS.has(e.type)) sink.send(wireOf(e));
      index(teamOf(link.teamId).visitors, link.setId).add(v);
      index(byLink, link.id).add(v);
      const joined = () => byLink.get(link.id)?.has(v) === true;
      return {
        leave: () => leave(v),
        async beat() {
          if (!joined()) return false;
          const current = await findTeamLink(ctx, link.teamId, link.id);
          if (!joined()) return false;
          if (linkStillOpens(current, v)) return true;
          end(v);
          return false;
        },
      };
    },

    /**
     * Whose rights changed, for every process of the instance: once the change has committed, each
     * reads those sessions and links again and closes the connections that lost their right.
     */
    rightsChanged(change: RightsChange): void {
      if (!change.sessions?.length && !change.links?.length) return;
      afterCommit(ctx.db, () => {
        heard(change);
        ctx.cluster.tellOthers(CLUSTER_TOPICS.realtimeRights, change);
      });
    },
  };
}

export type RealtimeHub = ReturnType<typeof createRealtimeHub>;
