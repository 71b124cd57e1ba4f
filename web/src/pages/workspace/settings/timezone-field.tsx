import type { ComponentChildren } from "preact";
import { Combobox } from "../../../components/combobox.tsx";
import { Field } from "../../../components/field.tsx";
import { browserTimeZone, zoneLabel, zoneOptions } from "./timezones.ts";

type Props = {
  label: string;
  value: string;
  onValue: (zone: string) => void;
  disabled?: boolean;
  hint?: ComponentChildren;
  /** When given, an empty value is offered under this label (a set falling back to its team's zone). */
  emptyLabel?: string;
};

/** An IANA time zone from the browser's list (about 400), found by typing; this browser's own zone comes first. */
export function TimeZoneField({ label, value, onValue, disabled, hint, emptyLabel }: Props) {
  const browser = browserTimeZone();
  return (
    <Field label={label} hint={hint}>
      {({ id, describedBy }) => (
        <Combobox
          id={id}
          value={value}
          display={value === "" && emptyLabel !== undefined ? emptyLabel : zoneLabel(value)}
          search={(query) => zoneOptions(query, { browser, emptyLabel })}
          onValue={onValue}
          listLabel="Time zones"
          countText={(n) => (n === 1 ? "1 time zone" : `${n} time zones`)}
          disabled={disabled}
          describedBy={describedBy}
        />
      )}
    </Field>
  );
}
