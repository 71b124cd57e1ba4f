import { t } from "elysia";
import { TEAM_ROLES } from "../../contract/team-roles.ts";

// Lengths here only bound the input; trimming and the 1..100 rule live in team-fields.ts, so
// their messages name the rule.
const Name = t.String({ maxLength: 1000 });
const TeamId = t.String({ maxLength: 100 });
const Role = t.Union(TEAM_ROLES.map((role) => t.Literal(role)));

export const CreateTeamBody = t.Object({ name: Name, parent_id: t.Optional(t.Nullable(TeamId)) });

/** `parent_id: null` makes a root team; leaving it out keeps the parent. */
export const UpdateTeamBody = t.Object({ name: t.Optional(Name), parent_id: t.Optional(t.Nullable(TeamId)) });

export const AddMemberBody = t.Object({ username: t.String({ maxLength: 320 }), role: Role });

export const ChangeMemberBody = t.Object({ role: Role });

export const CreateGroupBody = t.Object({ slug: t.String({ maxLength: 100 }), name: Name });

export const RenameGroupBody = t.Object({ name: Name });

export const GroupMembersBody = t.Object({ user_ids: t.Array(t.String({ maxLength: 100 }), { maxItems: 10_000 }) });

export const AuditQuery = t.Object({
  before: t.Optional(t.Numeric({ minimum: 1, maximum: 9_007_199_254_740_991, multipleOf: 1 })),
  limit: t.Optional(t.Numeric({ minimum: 1, maximum: 200, multipleOf: 1 })),
});
