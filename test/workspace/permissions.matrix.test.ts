import { describe, expect, it } from "bun:test";
import { AppError } from "../../src/shared/errors.ts";
import { PERMISSION_KEYS } from "../../src/contract/workspace.ts";
import { DEFAULT_PERMISSIONS, effectivePermissions, listPermissionsMap, validateMatrix } from "../../src/workspace/permissions/permissions.ts";

const granted = (role: keyof typeof DEFAULT_PERMISSIONS) => PERMISSION_KEYS.filter((key) => DEFAULT_PERMISSIONS[role][key]);

describe("ARCHITECTURE section 4: role defaults", () => {
  it("gives owner and co-owner every key", () => {
    expect(granted("owner")).toEqual([...PERMISSION_KEYS]);
    expect(granted("co-owner")).toEqual([...PERMISSION_KEYS]);
  });
  it("gives admin every key but manage_settings", () => {
    expect(granted("admin")).toEqual(PERMISSION_KEYS.filter((key) => key !== "manage_settings"));
  });
  it("gives member view, create, edit/delete own, sub-todos, comment and delete own comments", () => {
    expect(granted("member")).toEqual(["view_todos", "create_todos", "edit_own_todos", "delete_own_todos", "add_subtodos", "comment", "delete_own_comments"]);
  });
});

describe("effectivePermissions: set overrides win over the team matrix, which wins over defaults", () => {
  it("uses the defaults without a matrix", () => {
    expect(effectivePermissions("member")).toEqual(DEFAULT_PERMISSIONS.member);
  });
  it("applies the team matrix for the caller's role only", () => {
    const matrix = { member: { assign_todos: true }, admin: { delete_any_todo: false } };
    expect(effectivePermissions("member", matrix).assign_todos).toBe(true);
    expect(effectivePermissions("admin", matrix).delete_any_todo).toBe(false);
    expect(effectivePermissions("admin", matrix).assign_todos).toBe(true);
  });
  it("lets a set override undo the team matrix in both directions", () => {
    const team = { member: { assign_todos: true, comment: false } };
    const set = { member: { assign_todos: false, comment: true } };
    const perms = effectivePermissions("member", team, set);
    expect(perms.assign_todos).toBe(false);
    expect(perms.comment).toBe(true);
    expect(perms.view_todos).toBe(true);
  });
  it("does not change the shared defaults", () => {
    effectivePermissions("member", { member: { manage_sets: true } });
    expect(DEFAULT_PERMISSIONS.member.manage_sets).toBe(false);
  });
});

describe("validateMatrix", () => {
  it("accepts a partial matrix and returns a copy", () => {
    const input = { admin: { manage_settings: true }, member: {} };
    const matrix = validateMatrix(input);
    expect(matrix).toEqual(input);
    expect(matrix).not.toBe(input);
  });

  const refused: [string, unknown][] = [
    ["not an object", "admin"],
    ["null", null],
    ["an array", [{ admin: {} }]],
    ["an unknown role", { guest: { view_todos: true } }],
    ["an unknown key", { member: { fly: true } }],
    ["a non-boolean value", { member: { view_todos: "yes" } }],
    ["a row that is not an object", { member: true }],
    ["a __proto__ role", JSON.parse('{"__proto__": {"view_todos": true}}')],
  ];
  for (const [what, input] of refused) {
    it(`refuses ${what} with exactly "Invalid request"`, () => {
      let error: unknown;
      try {
        validateMatrix(input);
      } catch (caught) {
        error = caught;
      }
      expect(error).toBeInstanceOf(AppError);
      expect((error as AppError).message).toBe("Invalid request");
      expect((error as AppError).status).toBe(400);
    });
  }
});

describe("spec 2 section 2.3: the list endpoint's permissions map", () => {
  it("has a boolean for every key, create_todos first and view_todos last", () => {
    const map = listPermissionsMap(effectivePermissions("member"));
    const keys = Object.keys(map);
    expect(keys).toHaveLength(PERMISSION_KEYS.length);
    expect(keys[0]).toBe("create_todos");
    expect(keys.at(-1)).toBe("view_todos");
    expect(map).toMatchObject({ view_todos: true, create_todos: true, assign_todos: false, manage_settings: false });
  });
});
