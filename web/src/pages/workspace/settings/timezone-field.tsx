import type { ComponentChildren } from "preact";
import { useMemo, useState } from "preact/hooks";
import { Field } from "../../../components/field.tsx";
import { allTimeZones, filterTimeZones } from "./timezones.ts";

type Props = {
  label: string;
  value: string;
  onValue: (zone: string) => void;
  disabled?: boolean;
  hint?: ComponentChildren;
  /** When given, an empty value is offered under this label (a set falling back to its team's zone). */
  emptyLabel?: string;
};

/** An IANA time zone picked from the browser's list, narrowed by a search box (there are about 400). */
export function TimeZoneField({ label, value, onValue, disabled, hint, emptyLabel }: Props) {
  const [search, setSearch] = useState("");
  const zones = useMemo(() => filterTimeZones(allTimeZones(), search, value), [search, value]);
  return (
    <Field label={label} hint={hint}>
      {({ id, describedBy }) => (
        <div class="wss-timezone">
          <input
            type="search"
            class="input"
            placeholder="Search time zones…"
            aria-label={`Search ${label.toLowerCase()}`}
            value={search}
            disabled={disabled}
            onInput={(e) => setSearch(e.currentTarget.value)}
          />
          <select id={id} class="input" value={value} disabled={disabled} aria-describedby={describedBy} onChange={(e) => onValue(e.currentTarget.value)}>
            {emptyLabel !== undefined ? <option value="">{emptyLabel}</option> : null}
            {zones.map((zone) => (
              <option key={zone} value={zone}>
                {zone.replaceAll("_", " ")}
              </option>
            ))}
          </select>
        </div>
      )}
    </Field>
  );
}
