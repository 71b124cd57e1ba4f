let zones: string[] | undefined;

/** The IANA time zones this browser knows, with `UTC` (the spec's default) always first. */
export function allTimeZones(): string[] {
  zones ??= ["UTC", ...Intl.supportedValuesOf("timeZone").filter((zone) => zone !== "UTC")];
  return zones;
}

/**
 * The zones matching every word of `search` (case-insensitive, `_` read as a space), keeping
 * `selected` in the list so a select never silently shows another value than the one chosen.
 */
export function filterTimeZones(all: readonly string[], search: string, selected: string): string[] {
  const words = search.toLowerCase().split(/\s+/).filter(Boolean);
  const matches = all.filter((zone) => {
    const text = zone.toLowerCase().replaceAll("_", " ");
    return words.every((word) => text.includes(word) || zone.toLowerCase().includes(word));
  });
  return selected && !matches.includes(selected) ? [selected, ...matches] : matches;
}
