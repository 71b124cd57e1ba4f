import type { AppContext } from "../context/context.ts";
import type { TeamSync } from "./members/team-members.service.ts";
import { createPermissionsRepo, type PermissionsRepo } from "./permissions/permissions.resolve.ts";
import { createShareLinksRepo, type ShareLinksRepo } from "./storage/share-links.repo.ts";
import { createSvgCache, type SvgCache } from "./share-links/svg-cache.ts";
import type { IdpState } from "./session/idp-client.ts";
import { createWsSessionsRepo, type WsSessionsRepo } from "./session/session.service.ts";
import type { WsSessionRow } from "./storage/session.table.ts";
import { createMemberCacheRepo, type MemberCacheRepo } from "./members/members.service.ts";
import { createTodosRepo, type TodosRepo } from "./storage/todos.repo.ts";
import { createRealtimeHub, type RealtimeHub } from "./realtime/realtime-hub.ts";

/**
 * What the workspace keeps for one app, made once at boot: its repositories (statements
 * prepared once, list caches) and the in-memory state of its syncs and caches.
 */
export type WorkspaceRuntime = {
  todos: TodosRepo;
  shareLinks: ShareLinksRepo;
  permissions: PermissionsRepo;
  sessions: WsSessionsRepo;
  memberCache: MemberCacheRepo;
  /** Share-link images, 60 seconds (spec 2 section 8). */
  svgImages: SvgCache;
  /** Per team: when the IdP's member list was last fetched, and the fetch under way. */
  memberSyncs: Map<string, TeamSync>;
  /** Per session: the confirmation with the IdP under way (concurrent requests share it). */
  confirmations: Map<string, Promise<WsSessionRow | null>>;
  /** The IdP's discovery, and the token renewals under way per session. */
  idp: IdpState;
  /** Who hears each team's events, with their rights as last checked (realtime/realtime-hub.ts). */
  realtime: RealtimeHub;
};

declare module "../context/context.ts" {
  interface AppContext {
    workspace: WorkspaceRuntime;
  }
}

export function createWorkspaceRuntime(ctx: AppContext): WorkspaceRuntime {
  const { db, cluster } = ctx;
  return {
    todos: createTodosRepo({ db }),
    shareLinks: createShareLinksRepo({ db }),
    permissions: createPermissionsRepo({ db }),
    sessions: createWsSessionsRepo({ db }),
    memberCache: createMemberCacheRepo({ db }),
    svgImages: createSvgCache(cluster),
    memberSyncs: new Map(),
    confirmations: new Map(),
    idp: { discovery: null, renewing: new Map() },
    realtime: createRealtimeHub(ctx),
  };
}
