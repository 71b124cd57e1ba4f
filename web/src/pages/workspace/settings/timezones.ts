let zones: string[] | undefined;

/** The IANA time zones this browser knows, with `UTC` (the spec's default) always first. */
export function allTimeZones(): string[] {
  zones ??= ["UTC", ...Intl.supportedValuesOf("timeZone").filter((zone) => zone !== "UTC")];
  return zones;
}

/** The zone this browser runs in: what a person setting up a team most likely means (issue 42). */
export function browserTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC";
}

/** How a zone reads in the picker: `America/New York`. */
export const zoneLabel = (zone: string) => zone.replaceAll("_", " ");

type ZoneOption = { value: string; label: string };

/**
 * The picker's choices matching every word of `search` (case-insensitive, `_` read as a space): the
 * empty choice when there is one, this browser's zone, then every other zone.
 */
export function zoneOptions(search: string, { browser, emptyLabel }: { browser: string; emptyLabel?: string }): ZoneOption[] {
  const words = search.toLowerCase().split(/\s+/).filter(Boolean);
  const matches = (text: string) => words.every((word) => text.toLowerCase().includes(word));
  const options: ZoneOption[] = [
    ...(emptyLabel !== undefined ? [{ value: "", label: emptyLabel }] : []),
    { value: browser, label: `${zoneLabel(browser)} (this browser)` },
    ...allTimeZones()
      .filter((zone) => zone !== browser)
      .map((zone) => ({ value: zone, label: zoneLabel(zone) })),
  ];
  return options.filter((o) => matches(o.label) || matches(o.value));
}
