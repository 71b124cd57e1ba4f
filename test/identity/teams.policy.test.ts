import { describe, expect, it } from "bun:test";
import { isAtLeast, isTeamRole, pickHighestRole, rankOf } from "../../src/identity/teams/team-roles.ts";
import {
  canAttachSubTeam,
  canChangeMember,
  canGrantRole,
  canJoinGroup,
  canManageGroups,
  canManageMembers,
  canManageTeam,
  canReadAudit,
  canRemoveMember,
  canVacateRole,
  canViewTeam,
} from "../../src/identity/teams/teams.policy.ts";

// An effective role is the highest of the direct role and every ancestor's: a plain member of a
// sub-team who is owner of the grandparent acts as owner.
const inheritedOwner = pickHighestRole(["member", null, "owner"]);
const inheritedAdmin = pickHighestRole([null, "admin"]);

describe("team roles", () => {
  it("ranks owner > co-owner > admin > member > none", () => {
    expect([rankOf("owner"), rankOf("co-owner"), rankOf("admin"), rankOf("member"), rankOf(null)]).toEqual([4, 3, 2, 1, 0]);
    expect(isAtLeast("co-owner", "admin")).toBe(true);
    expect(isAtLeast("member", "admin")).toBe(false);
    expect(isAtLeast(null, "member")).toBe(false);
  });

  it("picks the highest of direct and inherited roles", () => {
    expect(inheritedOwner).toBe("owner");
    expect(inheritedAdmin).toBe("admin");
    expect(pickHighestRole([null, null])).toBeNull();
  });

  it("knows the four role names and nothing else", () => {
    expect(["owner", "co-owner", "admin", "member"].every(isTeamRole)).toBe(true);
    expect(isTeamRole("superuser")).toBe(false);
  });
});

describe("team policy", () => {
  it("canViewTeam: any role, direct or inherited; not an outsider", () => {
    expect(canViewTeam("member")).toBe(true);
    expect(canViewTeam(inheritedAdmin)).toBe(true);
    expect(canViewTeam(null)).toBe(false);
  });

  it("canManageTeam: owner and co-owner, inherited too; not admin", () => {
    expect(canManageTeam("co-owner")).toBe(true);
    expect(canManageTeam(inheritedOwner)).toBe(true);
    expect(canManageTeam("admin")).toBe(false);
    expect(canManageTeam(null)).toBe(false);
  });

  it("canAttachSubTeam: admin+ on the parent, inherited too; not member", () => {
    expect(canAttachSubTeam("admin")).toBe(true);
    expect(canAttachSubTeam(inheritedAdmin)).toBe(true);
    expect(canAttachSubTeam("member")).toBe(false);
  });

  it("canManageMembers and canManageGroups: admin+; not member", () => {
    for (const can of [canManageMembers, canManageGroups]) {
      expect(can(inheritedAdmin)).toBe(true);
      expect(can("owner")).toBe(true);
      expect(can("member")).toBe(false);
      expect(can(null)).toBe(false);
    }
  });

  it("canGrantRole: up to one's own role; never above it; never as a member", () => {
    expect(canGrantRole("admin", "admin")).toBe(true);
    expect(canGrantRole(inheritedOwner, "owner")).toBe(true);
    expect(canGrantRole("admin", "co-owner")).toBe(false);
    expect(canGrantRole("co-owner", "owner")).toBe(false);
    expect(canGrantRole("member", "member")).toBe(false);
  });

  it("canChangeMember: a target ranked at or below one's own; not above", () => {
    expect(canChangeMember("admin", "admin")).toBe(true);
    expect(canChangeMember(inheritedOwner, "co-owner")).toBe(true);
    expect(canChangeMember("admin", "co-owner")).toBe(false);
    expect(canChangeMember("admin", inheritedOwner)).toBe(false);
    expect(canChangeMember("member", "member")).toBe(false);
  });

  it("canRemoveMember: anyone may leave; removing another is a member change", () => {
    expect(canRemoveMember("member", "member", true)).toBe(true);
    expect(canRemoveMember("admin", "member", false)).toBe(true);
    expect(canRemoveMember("member", "member", false)).toBe(false);
    expect(canRemoveMember("admin", "owner", false)).toBe(false);
  });

  it("canVacateRole: the last direct owner may neither leave nor be demoted", () => {
    expect(canVacateRole("owner", null, 2)).toBe(true);
    expect(canVacateRole("owner", "owner", 1)).toBe(true);
    expect(canVacateRole("admin", null, 1)).toBe(true);
    expect(canVacateRole("owner", null, 1)).toBe(false);
    expect(canVacateRole("owner", "co-owner", 1)).toBe(false);
  });

  it("canJoinGroup: direct or inherited members only", () => {
    expect(canJoinGroup("member")).toBe(true);
    expect(canJoinGroup(inheritedAdmin)).toBe(true);
    expect(canJoinGroup(null)).toBe(false);
  });

  it("canReadAudit: admin+, inherited too; not member", () => {
    expect(canReadAudit(inheritedAdmin)).toBe(true);
    expect(canReadAudit("member")).toBe(false);
    expect(canReadAudit(null)).toBe(false);
  });
});
