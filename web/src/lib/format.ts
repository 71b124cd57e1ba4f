const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "short" });
const relative = new Intl.RelativeTimeFormat(undefined, { numeric: "auto" });

/**
 * A moment as local date and time, or a dash: the one way the app writes a date and time (issue 42),
 * so comments, activity, todos and lists read alike. Takes ms since the epoch or an ISO 8601 string.
 */
export function formatTime(at: number | string | null | undefined): string {
  const ms = typeof at === "string" ? Date.parse(at) : at;
  return ms ? dateTime.format(new Date(ms)) : "—";
}

/** "3 minutes ago", "in 2 days". */
export function formatAgo(ms: number | null | undefined, now = Date.now()): string {
  if (!ms) return "never";
  const seconds = Math.round((ms - now) / 1000);
  const units: [Intl.RelativeTimeFormatUnit, number][] = [
    ["year", 31_536_000],
    ["month", 2_592_000],
    ["day", 86_400],
    ["hour", 3600],
    ["minute", 60],
  ];
  for (const [unit, size] of units) if (Math.abs(seconds) >= size) return relative.format(Math.round(seconds / size), unit);
  return "just now";
}

/** A typed list ("en, fr" or one per line) as its items, blanks dropped. */
export function splitList(text: string): string[] {
  return text
    .split(/[\s,]+/)
    .map((item) => item.trim())
    .filter(Boolean);
}
