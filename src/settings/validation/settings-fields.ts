import { ACTION_KEYS, type ActionKey } from "../../contract/workspace.ts";
import { isCssColor } from "../../shared/css-color.ts";

// Value checks for team settings (spec 3 section 2.3) and user settings (section 2.4). Each
// takes `unknown` because it runs on parsed JSON; the caller answers 400 `Invalid request`.

/**
 * Spec 3 section 2.3 accent_color: "any CSS color value" (see `isCssColor`, including
 * currentcolor, which makes the accent follow the text), or "" to reset to the default theme.
 */
export function isValidCssColor(value: unknown): value is string {
  return value === "" || isCssColor(value);
}

const IANA_NAME = /^[A-Za-z][A-Za-z0-9_+-]*(?:\/[A-Za-z0-9_+-]+)*$/;
let supportedZones: ReadonlySet<string> | undefined;

/**
 * Spec 3 section 2.3 default_timezone: an IANA name. Names the runtime lists, plus `UTC` and
 * links it accepts without listing (`Asia/Calcutta`, `US/Eastern`). Offsets such as `+05:30` and
 * other spellings of a name (`utc`) are refused: they are not IANA names.
 */
export function isValidTimezone(name: unknown): name is string {
  if (typeof name !== "string" || !IANA_NAME.test(name)) return false;
  supportedZones ??= new Set([...Intl.supportedValuesOf("timeZone"), "UTC"]);
  if (supportedZones.has(name)) return true;
  try {
    return new Intl.DateTimeFormat("en", { timeZone: name }).resolvedOptions().timeZone === name;
  } catch {
    return false;
  }
}

const CONTROL_OR_SPACE = /[\s\u0000-\u001f\u007f]/;

/** Spec 3 section 2.3 site_logo_url and 2.4 complete_sound_url: an absolute http(s) URL, or empty. */
export function isValidHttpUrl(value: unknown): value is string {
  if (typeof value !== "string") return false;
  if (value === "") return true;
  // The URL parser silently drops tabs and newlines; refuse them rather than store a different URL.
  if (CONTROL_OR_SPACE.test(value) || !URL.canParse(value)) return false;
  const url = new URL(value);
  return (url.protocol === "http:" || url.protocol === "https:") && url.hostname !== "";
}

/** An array of distinct action keys, or null (which resets to the workspace default). */
export function isValidActionBar(value: unknown): value is ActionKey[] | null {
  if (value === null) return true;
  if (!Array.isArray(value)) return false;
  const keys: readonly unknown[] = ACTION_KEYS;
  return value.every((key) => keys.includes(key)) && new Set(value).size === value.length;
}

const HH_MM = /^(?:[01]\d|2[0-3]):[0-5]\d$/;

/** Spec 2 section 2.1 renewTime: `HH:MM`, 24-hour, zero-padded (so strings compare as times). */
export function isValidHhMm(value: unknown): value is string {
  return typeof value === "string" && HH_MM.test(value);
}
