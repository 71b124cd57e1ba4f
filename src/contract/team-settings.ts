// Spec 3 section 2.3: a team's settings before anyone saved any. The server fills them in; the SPA
// tells a team that never changed anything (its workspace settings start from this browser's time zone).

export const DEFAULT_TEAM_SETTINGS = {
  site_name: "Cairn",
  site_logo_url: "",
  accent_color: "",
  // Issue 42: "Inbox" reads as the place new todos land (the spec's default is "Not Grouped").
  default_set_name: "Inbox",
  allow_member_create_sets: false,
  default_timezone: "UTC",
};
