import { describe, expect, it } from "bun:test";
import type { Matrix } from "../../src/contract/workspace.ts";
import type { WorkspaceRole } from "../../src/contract/workspace.ts";
import type { MemberActor, SessionCaller, ShareLinkActor, WorkspaceActor, WorkspaceCaller } from "../../src/workspace/permissions/actor.ts";
import { effectivePermissions } from "../../src/workspace/permissions/permissions.ts";
import {
  canAssign,
  canComment,
  canCreateTodo,
  canDeleteComment,
  canDeleteTodo,
  canExport,
  canImport,
  canManageLinks,
  canManageSets,
  canManageSettings,
  canMoveTodo,
  canPatchSet,
  canPatchTodo,
  canReorder,
  canViewSet,
  findRefusedField,
  missingCreateKey,
} from "../../src/workspace/permissions/permissions.policy.ts";

/** The policies take who acts; "own" below means the item's owner is this member. */
const actorAs = (role: WorkspaceRole): MemberActor => ({ kind: "member", teamId: "t1", userId: "me", role, session: {} as MemberActor["session"] });
const me = actorAs("member");
const OWN = "me";
const OTHERS = "someone-else";

const owner = effectivePermissions("owner");
const admin = effectivePermissions("admin");
const member = effectivePermissions("member");
/** A member that one set's overrides lift to nearly an admin, to show overrides reach every check. */
const lifted: Matrix = {
  member: {
    edit_any_todo: true,
    complete_any_todo: true,
    delete_any_todo: true,
    assign_todos: true,
    reorder_todos: true,
    delete_any_comment: true,
    manage_sets: true,
    manage_set_links: true,
  },
};
const liftedMember = effectivePermissions("member", undefined, lifted);
const revokedView = effectivePermissions("member", undefined, { member: { view_todos: false, create_todos: false, comment: false } });

describe("spec 2 section 4.2: GET todos needs view_todos", () => {
  it("lets a member view a set", () => expect(canViewSet(me, member)).toBe(true));
  it("refuses a member whose set overrides revoke view_todos", () => expect(canViewSet(me, revokedView)).toBe(false));
});

describe("spec 2 section 4.2: POST todos needs create_todos, and add_subtodos with a parentId", () => {
  it("lets a member create a top-level todo and a sub-todo", () => {
    expect(canCreateTodo(me, member, { parentId: null })).toBe(true);
    expect(canCreateTodo(me, member, { parentId: "p1" })).toBe(true);
  });
  it("refuses creation without create_todos and names the missing key", () => {
    expect(canCreateTodo(me, revokedView, { parentId: null })).toBe(false);
    expect(missingCreateKey(me, revokedView, { parentId: "p1" })).toBe("create_todos");
  });
  it("refuses a sub-todo when the team matrix takes add_subtodos away, but not a top-level todo", () => {
    const perms = effectivePermissions("member", { member: { add_subtodos: false } });
    expect(canCreateTodo(me, perms, { parentId: null })).toBe(true);
    expect(canCreateTodo(me, perms, { parentId: "p1" })).toBe(false);
    expect(missingCreateKey(me, perms, { parentId: "p1" })).toBe("add_subtodos");
  });
});

describe("spec 2 section 4.2: field permissions on PATCH", () => {
  it("title: own with edit_own_todos, others' with edit_any_todo", () => {
    expect(canPatchTodo(me, member, { ownerId: OWN, fields: ["title"] })).toBe(true);
    expect(canPatchTodo(me, member, { ownerId: OTHERS, fields: ["title"] })).toBe(false);
    expect(canPatchTodo(me, admin, { ownerId: OTHERS, fields: ["title"] })).toBe(true);
    expect(canPatchTodo(me, liftedMember, { ownerId: OTHERS, fields: ["title"] })).toBe(true);
  });
  it("title: refuses own when the matrix takes edit_own_todos away", () => {
    const perms = effectivePermissions("member", { member: { edit_own_todos: false } });
    expect(canPatchTodo(me, perms, { ownerId: OWN, fields: ["title"] })).toBe(false);
  });
  it("completed: always for own, even with no keys at all", () => {
    const none = effectivePermissions("member", { member: { ...Object.fromEntries(Object.keys(member).map((k) => [k, false])) } });
    expect(canPatchTodo(me, none, { ownerId: OWN, fields: ["completed"] })).toBe(true);
  });
  it("completed: others' only with complete_any_todo", () => {
    expect(canPatchTodo(me, member, { ownerId: OTHERS, fields: ["completed"] })).toBe(false);
    expect(canPatchTodo(me, liftedMember, { ownerId: OTHERS, fields: ["completed"] })).toBe(true);
  });
  it("sortOrder: reorder_todos, own or not", () => {
    expect(canPatchTodo(me, member, { ownerId: OWN, fields: ["sortOrder"] })).toBe(false);
    expect(canPatchTodo(me, admin, { ownerId: OTHERS, fields: ["sortOrder"] })).toBe(true);
  });
  it("names the first refused field so the service can pick its 403 text", () => {
    expect(findRefusedField(me, member, { ownerId: OWN, fields: ["completed", "title", "sortOrder"] })).toBe("sortOrder");
    expect(findRefusedField(me, member, { ownerId: OTHERS, fields: ["title", "completed"] })).toBe("title");
    expect(findRefusedField(me, owner, { ownerId: OTHERS, fields: ["title", "completed", "sortOrder"] })).toBeNull();
  });
});

describe("spec 2 section 4.2: DELETE todo needs delete_own_todos (own) or delete_any_todo", () => {
  it("lets a member delete their own todo and an admin anyone's", () => {
    expect(canDeleteTodo(me, member, { ownerId: OWN })).toBe(true);
    expect(canDeleteTodo(me, admin, { ownerId: OTHERS })).toBe(true);
  });
  it("refuses a member deleting another's todo unless the set lifts delete_any_todo", () => {
    expect(canDeleteTodo(me, member, { ownerId: OTHERS })).toBe(false);
    expect(canDeleteTodo(me, liftedMember, { ownerId: OTHERS })).toBe(true);
  });
});

describe("spec 2 section 4.2: assignees, reorder", () => {
  it("assign_todos: admin yes, member no, member with set override yes", () => {
    expect(canAssign(me, admin)).toBe(true);
    expect(canAssign(me, member)).toBe(false);
    expect(canAssign(me, liftedMember)).toBe(true);
  });
  it("reorder_todos: admin yes, member no", () => {
    expect(canReorder(me, admin)).toBe(true);
    expect(canReorder(me, member)).toBe(false);
  });
});

describe("comments (ARCHITECTURE section 4)", () => {
  it("comment: member yes, revoked for the set no", () => {
    expect(canComment(me, member)).toBe(true);
    expect(canComment(me, revokedView)).toBe(false);
  });
  it("deletes own comments with delete_own_comments, others' only with delete_any_comment", () => {
    expect(canDeleteComment(me, member, { ownerId: OWN })).toBe(true);
    expect(canDeleteComment(me, member, { ownerId: OTHERS })).toBe(false);
    expect(canDeleteComment(me, admin, { ownerId: OTHERS })).toBe(true);
    expect(canDeleteComment(me, liftedMember, { ownerId: OTHERS })).toBe(true);
  });
});

describe("spec 2 section 2.3: manage_sets and allow_member_create_sets", () => {
  it("lets holders of manage_sets create and reorder", () => {
    expect(canManageSets(me, admin, { allowMemberCreateSets: false, action: "create" })).toBe(true);
    expect(canManageSets(me, admin, { allowMemberCreateSets: false, action: "other" })).toBe(true);
  });
  it("refuses a member creating a set while the team setting is off", () => {
    expect(canManageSets(me, member, { allowMemberCreateSets: false, action: "create" })).toBe(false);
  });
  it("lets a member create a set when the setting is on, but nothing else", () => {
    expect(canManageSets(me, member, { allowMemberCreateSets: true, action: "create" })).toBe(true);
    expect(canManageSets(me, member, { allowMemberCreateSets: true, action: "other" })).toBe(false);
  });
  it("covers any team member, so also an admin whose manage_sets the matrix took away", () => {
    const demoted = effectivePermissions("admin", { admin: { manage_sets: false } });
    expect(canManageSets(me, demoted, { allowMemberCreateSets: false, action: "create" })).toBe(false);
    expect(canManageSets(me, demoted, { allowMemberCreateSets: true, action: "create" })).toBe(true);
  });
  it("lets a member whose set overrides grant manage_sets do more than create", () => {
    expect(canManageSets(me, liftedMember, { allowMemberCreateSets: false, action: "other" })).toBe(true);
  });
});

describe("spec 2 section 4.1: PATCH and DELETE set need manage_sets or being the creator (one rule, canPatchSet)", () => {
  it("lets the creator and holders of manage_sets", () => {
    expect(canPatchSet(me, member, { creatorId: OWN })).toBe(true);
    expect(canPatchSet(me, admin, { creatorId: OTHERS })).toBe(true);
  });
  it("refuses a member who did not create the set", () => {
    expect(canPatchSet(me, member, { creatorId: OTHERS })).toBe(false);
  });
});

describe("spec 2 section 4.2: move needs edit own/any in the source and create_todos in the target", () => {
  it("lets a member move their own todo between sets they can add to", () => {
    expect(canMoveTodo(me, member, member, { ownerId: OWN })).toBe(true);
    expect(canMoveTodo(me, admin, member, { ownerId: OTHERS })).toBe(true);
  });
  it("refuses moving another's todo without edit_any_todo in the source", () => {
    expect(canMoveTodo(me, member, owner, { ownerId: OTHERS })).toBe(false);
  });
  it("refuses moving into a set whose overrides revoke create_todos", () => {
    expect(canMoveTodo(me, owner, revokedView, { ownerId: OWN })).toBe(false);
  });
});

describe("spec 2 section 4.3: share links need manage_set_links", () => {
  it("lets an admin, and a member lifted by set overrides", () => {
    expect(canManageLinks(me, admin)).toBe(true);
    expect(canManageLinks(me, liftedMember)).toBe(true);
  });
  it("refuses a member by default", () => expect(canManageLinks(me, member)).toBe(false));
});

describe("spec 3 section 4.2: team settings PATCH needs manage_settings, or owner or co-owner", () => {
  it("lets owner and co-owner, and an admin the matrix grants manage_settings", () => {
    expect(canManageSettings(actorAs("owner"), owner)).toBe(true);
    expect(canManageSettings(actorAs("co-owner"), effectivePermissions("co-owner"))).toBe(true);
    expect(canManageSettings(actorAs("admin"), effectivePermissions("admin", { admin: { manage_settings: true } }))).toBe(true);
  });
  it("keeps an owner in even when the matrix takes manage_settings away", () => {
    expect(canManageSettings(actorAs("owner"), effectivePermissions("owner", { owner: { manage_settings: false } }))).toBe(true);
  });
  it("refuses admin and member by default", () => {
    expect(canManageSettings(actorAs("admin"), admin)).toBe(false);
    expect(canManageSettings(actorAs("member"), member)).toBe(false);
  });
});

describe("spec 2 section 4.1: import and export", () => {
  it("import append needs create_todos; replace also manage_sets", () => {
    expect(canImport(me, member, { mode: "append" })).toBe(true);
    expect(canImport(me, member, { mode: "replace" })).toBe(false);
    expect(canImport(me, admin, { mode: "replace" })).toBe(true);
  });
  it("refuses import without create_todos, in either mode", () => {
    const noCreate = effectivePermissions("admin", undefined, { admin: { create_todos: false } });
    expect(canImport(me, noCreate, { mode: "append" })).toBe(false);
    expect(canImport(me, noCreate, { mode: "replace" })).toBe(false);
  });
  it("export needs view_todos", () => {
    expect(canExport(me, member)).toBe(true);
    expect(canExport(me, revokedView)).toBe(false);
  });
});

describe("spec 2 section 2.2: a share link is an actor that owns nothing", () => {
  const link: ShareLinkActor = {
    kind: "share_link",
    teamId: "t1",
    userId: "shared",
    setId: "s1",
    linkId: "l1",
    capabilities: { canView: true, canCreate: true, canEdit: true, canComplete: true, canDelete: true, canComment: true, canReorder: true },
  };
  const linkPerms = effectivePermissions("owner");
  it("never counts what it wrote through the link as its own", () => {
    const noAny = effectivePermissions("member", { member: { complete_any_todo: false, edit_any_todo: false, delete_any_todo: false } });
    expect(canPatchTodo(link, noAny, { ownerId: "shared", fields: ["completed"] })).toBe(false);
    expect(canDeleteTodo(link, noAny, { ownerId: "shared" })).toBe(false);
  });
  it("may not manage sets, links or settings, nor import, whatever its keys", () => {
    expect(canManageSets(link, linkPerms, { allowMemberCreateSets: true, action: "create" })).toBe(false);
    expect(canPatchSet(link, linkPerms, { creatorId: "shared" })).toBe(false);
    expect(canManageLinks(link, linkPerms)).toBe(false);
    expect(canManageSettings(link, linkPerms)).toBe(false);
    expect(canImport(link, linkPerms, { mode: "append" })).toBe(false);
  });
});

describe("a session caller (signed in, in no team) is not an actor", () => {
  const session: SessionCaller = { kind: "session", userId: "me", session: {} as SessionCaller["session"] };
  it("cannot be handed to a can*: each takes a WorkspaceActor, and the type checker (tsc) keeps a session out", () => {
    // @ts-expect-error a SessionCaller holds no role in any team
    const actor: WorkspaceActor = session;
    // @ts-expect-error the same at a policy's own parameter
    const forPolicy: Parameters<typeof canManageSettings>[0] = session;
    expect([actor.kind, forPolicy.kind] as string[]).toEqual(["session", "session"]);
  });
  it("is told apart from the actors by its kind, so a caller narrows to one the policies take", () => {
    const callers: WorkspaceCaller[] = [session, actorAs("owner")];
    const actors = callers.filter((caller): caller is WorkspaceActor => caller.kind !== "session");
    expect(actors.map((actor) => canManageSettings(actor, owner))).toEqual([true]);
  });
});
