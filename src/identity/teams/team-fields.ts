import { badInput } from "../users/identity.errors.ts";

/** Group slugs name a group in tokens (`groups_in_team_<id>`), so they never change. */
const GROUP_SLUG = /^[a-z0-9][a-z0-9_-]{0,62}$/;

/** Team and group names: trimmed, 1 to 100 characters. */
export function normalizeTeamName(raw: string, what = "name"): string {
  const name = raw.trim();
  if (name.length < 1 || name.length > 100) throw badInput(`The ${what} must be 1 to 100 characters.`);
  return name;
}

export function assertGroupSlug(slug: string): string {
  if (!GROUP_SLUG.test(slug)) throw badInput("A group slug is 1 to 63 characters: lowercase letters, digits, '_' or '-', starting with a letter or digit.");
  return slug;
}
