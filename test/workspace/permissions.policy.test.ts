import { describe, expect, it } from "bun:test";
import { effectivePermissions, type Matrix } from "../../src/workspace/permissions/permissions.ts";
import {
  canAssign,
  canComment,
  canCreateTodo,
  canDeleteComment,
  canDeleteSet,
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

const owner = effectivePermissions("owner");
const admin = effectivePermissions("admin");
const member = effectivePermissions("member");
/** A member that one set's overrides lift to nearly an admin, to show overrides reach every check. */
const lifted: Matrix = {
  member: { edit_any_todo: true, complete_any_todo: true, delete_any_todo: true, assign_todos: true, reorder_todos: true, delete_any_comment: true, manage_sets: true, manage_set_links: true },
};
const liftedMember = effectivePermissions("member", undefined, lifted);
const revokedView = effectivePermissions("member", undefined, { member: { view_todos: false, create_todos: false, comment: false } });

describe("spec 2 section 4.2: GET todos needs view_todos", () => {
  it("lets a member view a set", () => expect(canViewSet(member)).toBe(true));
  it("refuses a member whose set overrides revoke view_todos", () => expect(canViewSet(revokedView)).toBe(false));
});

describe("spec 2 section 4.2: POST todos needs create_todos, and add_subtodos with a parentId", () => {
  it("lets a member create a top-level todo and a sub-todo", () => {
    expect(canCreateTodo(member, { parentId: null })).toBe(true);
    expect(canCreateTodo(member, { parentId: "p1" })).toBe(true);
  });
  it("refuses creation without create_todos and names the missing key", () => {
    expect(canCreateTodo(revokedView, { parentId: null })).toBe(false);
    expect(missingCreateKey(revokedView, { parentId: "p1" })).toBe("create_todos");
  });
  it("refuses a sub-todo when the team matrix takes add_subtodos away, but not a top-level todo", () => {
    const perms = effectivePermissions("member", { member: { add_subtodos: false } });
    expect(canCreateTodo(perms, { parentId: null })).toBe(true);
    expect(canCreateTodo(perms, { parentId: "p1" })).toBe(false);
    expect(missingCreateKey(perms, { parentId: "p1" })).toBe("add_subtodos");
  });
});

describe("spec 2 section 4.2: field permissions on PATCH", () => {
  it("title: own with edit_own_todos, others' with edit_any_todo", () => {
    expect(canPatchTodo(member, { isOwn: true, fields: ["title"] })).toBe(true);
    expect(canPatchTodo(member, { isOwn: false, fields: ["title"] })).toBe(false);
    expect(canPatchTodo(admin, { isOwn: false, fields: ["title"] })).toBe(true);
    expect(canPatchTodo(liftedMember, { isOwn: false, fields: ["title"] })).toBe(true);
  });
  it("title: refuses own when the matrix takes edit_own_todos away", () => {
    const perms = effectivePermissions("member", { member: { edit_own_todos: false } });
    expect(canPatchTodo(perms, { isOwn: true, fields: ["title"] })).toBe(false);
  });
  it("completed: always for own, even with no keys at all", () => {
    const none = effectivePermissions("member", { member: { ...Object.fromEntries(Object.keys(member).map((k) => [k, false])) } });
    expect(canPatchTodo(none, { isOwn: true, fields: ["completed"] })).toBe(true);
  });
  it("completed: others' only with complete_any_todo", () => {
    expect(canPatchTodo(member, { isOwn: false, fields: ["completed"] })).toBe(false);
    expect(canPatchTodo(liftedMember, { isOwn: false, fields: ["completed"] })).toBe(true);
  });
  it("sortOrder: reorder_todos, own or not", () => {
    expect(canPatchTodo(member, { isOwn: true, fields: ["sortOrder"] })).toBe(false);
    expect(canPatchTodo(admin, { isOwn: false, fields: ["sortOrder"] })).toBe(true);
  });
  it("names the first refused field so the service can pick its 403 text", () => {
    expect(findRefusedField(member, { isOwn: true, fields: ["completed", "title", "sortOrder"] })).toBe("sortOrder");
    expect(findRefusedField(member, { isOwn: false, fields: ["title", "completed"] })).toBe("title");
    expect(findRefusedField(owner, { isOwn: false, fields: ["title", "completed", "sortOrder"] })).toBeNull();
  });
});

describe("spec 2 section 4.2: DELETE todo needs delete_own_todos (own) or delete_any_todo", () => {
  it("lets a member delete their own todo and an admin anyone's", () => {
    expect(canDeleteTodo(member, { isOwn: true })).toBe(true);
    expect(canDeleteTodo(admin, { isOwn: false })).toBe(true);
  });
  it("refuses a member deleting another's todo unless the set lifts delete_any_todo", () => {
    expect(canDeleteTodo(member, { isOwn: false })).toBe(false);
    expect(canDeleteTodo(liftedMember, { isOwn: false })).toBe(true);
  });
});

describe("spec 2 section 4.2: assignees, reorder", () => {
  it("assign_todos: admin yes, member no, member with set override yes", () => {
    expect(canAssign(admin)).toBe(true);
    expect(canAssign(member)).toBe(false);
    expect(canAssign(liftedMember)).toBe(true);
  });
  it("reorder_todos: admin yes, member no", () => {
    expect(canReorder(admin)).toBe(true);
    expect(canReorder(member)).toBe(false);
  });
});

describe("comments (ARCHITECTURE section 4)", () => {
  it("comment: member yes, revoked for the set no", () => {
    expect(canComment(member)).toBe(true);
    expect(canComment(revokedView)).toBe(false);
  });
  it("deletes own comments with delete_own_comments, others' only with delete_any_comment", () => {
    expect(canDeleteComment(member, { isOwn: true })).toBe(true);
    expect(canDeleteComment(member, { isOwn: false })).toBe(false);
    expect(canDeleteComment(admin, { isOwn: false })).toBe(true);
    expect(canDeleteComment(liftedMember, { isOwn: false })).toBe(true);
  });
});

describe("spec 2 section 2.3: manage_sets and allow_member_create_sets", () => {
  it("lets holders of manage_sets create and reorder", () => {
    expect(canManageSets(admin, { allowMemberCreateSets: false, role: "admin", action: "create" })).toBe(true);
    expect(canManageSets(admin, { allowMemberCreateSets: false, role: "admin", action: "other" })).toBe(true);
  });
  it("refuses a member creating a set while the team setting is off", () => {
    expect(canManageSets(member, { allowMemberCreateSets: false, role: "member", action: "create" })).toBe(false);
  });
  it("lets a member create a set when the setting is on, but nothing else", () => {
    expect(canManageSets(member, { allowMemberCreateSets: true, role: "member", action: "create" })).toBe(true);
    expect(canManageSets(member, { allowMemberCreateSets: true, role: "member", action: "other" })).toBe(false);
  });
  it("covers any team member, so also an admin whose manage_sets the matrix took away", () => {
    const demoted = effectivePermissions("admin", { admin: { manage_sets: false } });
    expect(canManageSets(demoted, { allowMemberCreateSets: false, role: "admin", action: "create" })).toBe(false);
    expect(canManageSets(demoted, { allowMemberCreateSets: true, role: "admin", action: "create" })).toBe(true);
  });
  it("lets a member whose set overrides grant manage_sets do more than create", () => {
    expect(canManageSets(liftedMember, { allowMemberCreateSets: false, role: "member", action: "other" })).toBe(true);
  });
});

describe("spec 2 section 4.1: PATCH and DELETE set need manage_sets or being the creator", () => {
  it("lets the creator and holders of manage_sets", () => {
    expect(canPatchSet(member, { isCreator: true })).toBe(true);
    expect(canPatchSet(admin, { isCreator: false })).toBe(true);
    expect(canDeleteSet(member, { isCreator: true })).toBe(true);
    expect(canDeleteSet(admin, { isCreator: false })).toBe(true);
  });
  it("refuses a member who did not create the set", () => {
    expect(canPatchSet(member, { isCreator: false })).toBe(false);
    expect(canDeleteSet(member, { isCreator: false })).toBe(false);
  });
});

describe("spec 2 section 4.2: move needs edit own/any in the source and create_todos in the target", () => {
  it("lets a member move their own todo between sets they can add to", () => {
    expect(canMoveTodo(member, member, { isOwn: true })).toBe(true);
    expect(canMoveTodo(admin, member, { isOwn: false })).toBe(true);
  });
  it("refuses moving another's todo without edit_any_todo in the source", () => {
    expect(canMoveTodo(member, owner, { isOwn: false })).toBe(false);
  });
  it("refuses moving into a set whose overrides revoke create_todos", () => {
    expect(canMoveTodo(owner, revokedView, { isOwn: true })).toBe(false);
  });
});

describe("spec 2 section 4.3: share links need manage_set_links", () => {
  it("lets an admin, and a member lifted by set overrides", () => {
    expect(canManageLinks(admin)).toBe(true);
    expect(canManageLinks(liftedMember)).toBe(true);
  });
  it("refuses a member by default", () => expect(canManageLinks(member)).toBe(false));
});

describe("spec 3 section 4.2: team settings PATCH needs manage_settings, or owner or co-owner", () => {
  it("lets owner and co-owner, and an admin the matrix grants manage_settings", () => {
    expect(canManageSettings(owner, "owner")).toBe(true);
    expect(canManageSettings(effectivePermissions("co-owner"), "co-owner")).toBe(true);
    expect(canManageSettings(effectivePermissions("admin", { admin: { manage_settings: true } }), "admin")).toBe(true);
  });
  it("keeps an owner in even when the matrix takes manage_settings away", () => {
    expect(canManageSettings(effectivePermissions("owner", { owner: { manage_settings: false } }), "owner")).toBe(true);
  });
  it("refuses admin and member by default", () => {
    expect(canManageSettings(admin, "admin")).toBe(false);
    expect(canManageSettings(member, "member")).toBe(false);
  });
});

describe("spec 2 section 4.1: import and export", () => {
  it("import append needs create_todos; replace also manage_sets", () => {
    expect(canImport(member, { mode: "append" })).toBe(true);
    expect(canImport(member, { mode: "replace" })).toBe(false);
    expect(canImport(admin, { mode: "replace" })).toBe(true);
  });
  it("refuses import without create_todos, in either mode", () => {
    const noCreate = effectivePermissions("admin", undefined, { admin: { create_todos: false } });
    expect(canImport(noCreate, { mode: "append" })).toBe(false);
    expect(canImport(noCreate, { mode: "replace" })).toBe(false);
  });
  it("export needs view_todos", () => {
    expect(canExport(member)).toBe(true);
    expect(canExport(revokedView)).toBe(false);
  });
});
