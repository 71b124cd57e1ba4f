import { isValidHhMm, isValidTimezone } from "../../settings/validation/settings-fields.ts";

/** The set fields auto-renew reads (spec 2 section 2.1). */
export type RenewSchedule = {
  autoRenew: boolean;
  renewTime: string;
  timezone: string;
  /** ISO 8601, or null when never renewed. */
  lastRenewedAt: string | null;
};

/**
 * Spec 2 section 2.1: the set's timezone, else the team's `default_timezone`, else `UTC` (spec 3
 * section 2.3 default). A name that is not a valid IANA zone (stored before validation existed)
 * falls through the same way rather than stopping the job for every set.
 */
export function effectiveTimezone(setTimezone: string | null | undefined, teamDefault: string | null | undefined): string {
  if (setTimezone && isValidTimezone(setTimezone)) return setTimezone;
  if (teamDefault && isValidTimezone(teamDefault)) return teamDefault;
  return "UTC";
}

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterFor(timeZone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(timeZone);
  if (!formatter) {
    // h23, not hour12: false, which some engines render as "24" at midnight.
    const options = { timeZone, hourCycle: "h23", year: "numeric", month: "2-digit", day: "2-digit", hour: "2-digit", minute: "2-digit" } as const;
    formatter = new Intl.DateTimeFormat("en-US-u-nu-latn", options);
    formatters.set(timeZone, formatter);
  }
  return formatter;
}

/** The wall-clock date and minute of an instant in `timeZone`; throws RangeError for an unknown zone. */
export function localDateTime(instantMs: number, timeZone: string): { date: string; time: string } {
  const parts: Record<string, string> = {};
  for (const part of formatterFor(timeZone).formatToParts(instantMs)) parts[part.type] = part.value;
  return { date: `${parts.year!.padStart(4, "0")}-${parts.month}-${parts.day}`, time: `${parts.hour}:${parts.minute}` };
}

/**
 * Spec 2 section 3 (auto-renew row): due when autoRenew is on, the local time in the effective
 * timezone is at or past renewTime, and the set has not been renewed for the current local date.
 * The last renewal's date is read in the same zone, so a repeated DST hour cannot fire twice and
 * a renewTime inside a skipped hour fires at the first run after it (spec 2 section 8: at most
 * once per set per local date).
 */
export function isRenewDue(set: RenewSchedule, teamDefaultTimezone: string | null | undefined, nowMs: number): boolean {
  // A malformed renewTime would compare as text against every time of day; never guess.
  if (!set.autoRenew || !isValidHhMm(set.renewTime)) return false;
  const zone = effectiveTimezone(set.timezone, teamDefaultTimezone);
  const now = localDateTime(nowMs, zone);
  // Zero-padded HH:MM and YYYY-MM-DD compare correctly as strings.
  if (now.time < set.renewTime) return false;
  const lastMs = set.lastRenewedAt === null ? Number.NaN : Date.parse(set.lastRenewedAt);
  // An unreadable lastRenewedAt counts as never renewed: the renewal rewrites it.
  if (Number.isNaN(lastMs)) return true;
  return localDateTime(lastMs, zone).date < now.date;
}
