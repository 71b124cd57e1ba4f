import { useId } from "preact/hooks";
import type { MatchType, RedirectEntry } from "../../api/apps.ts";
import { Button } from "../../components/button.tsx";
import { isCatchAll } from "./catch-all.ts";

const MAX_ROWS = 20;
const MATCHES: { value: MatchType; label: string }[] = [
  { value: "equals", label: "Exact" },
  { value: "wildcard", label: "Wildcard (*)" },
  { value: "regex", label: "Regular expression" },
];
const PLACEHOLDER: Record<MatchType, string> = {
  equals: "https://app.example.com/callback",
  wildcard: "https://*.example.com/callback",
  regex: "https://(www|app)\\.example\\.com/callback",
};

type Props = { rows: RedirectEntry[]; onChange: (rows: RedirectEntry[]) => void; rowErrors?: Record<number, string>; error?: string };

/** Where the app may receive sign-in results: rows of a URI or pattern and how it is matched. */
export function RedirectUrisEditor({ rows, onChange, rowErrors = {}, error }: Props) {
  const id = useId();
  const set = (i: number, patch: Partial<RedirectEntry>) => onChange(rows.map((r, j) => (j === i ? { ...r, ...patch } : r)));
  return (
    <fieldset class={`redirects${error ? " field-invalid" : ""}`} aria-describedby={`${id}-hint${error ? ` ${id}-error` : ""}`}>
      <legend>Redirect URIs</legend>
      <p class="field-hint" id={`${id}-hint`}>
        Where people return after signing in. Exact URIs are safest; https is required, except for localhost. With none, the app is locked to the first one it
        uses.
      </p>
      {rows.map((row, i) => {
        const n = i + 1;
        const rowId = `${id}-${i}`;
        const warn = isCatchAll(row);
        const described = [rowErrors[i] ? `${rowId}-error` : "", warn ? `${rowId}-warn` : ""].filter(Boolean).join(" ") || undefined;
        return (
          <div key={i} class={`redirect-row${rowErrors[i] ? " field-invalid" : ""}`}>
            <div class="redirect-inputs">
              <label class="visually-hidden" for={`${rowId}-uri`}>
                Redirect URI {n}
              </label>
              <input
                id={`${rowId}-uri`}
                class="input mono"
                type="text"
                inputMode="url"
                spellcheck={false}
                autocomplete="off"
                placeholder={PLACEHOLDER[row.match]}
                value={row.uri}
                aria-invalid={Boolean(rowErrors[i])}
                aria-describedby={described}
                onInput={(e) => set(i, { uri: e.currentTarget.value })}
              />
              <label class="visually-hidden" for={`${rowId}-match`}>
                Match type for redirect URI {n}
              </label>
              <select id={`${rowId}-match`} class="input" value={row.match} onChange={(e) => set(i, { match: e.currentTarget.value as MatchType })}>
                {MATCHES.map((m) => (
                  <option key={m.value} value={m.value}>
                    {m.label}
                  </option>
                ))}
              </select>
              <Button variant="ghost" onClick={() => onChange(rows.filter((_, j) => j !== i))} aria-label={`Remove redirect URI ${n}`}>
                Remove
              </Button>
            </div>
            {rowErrors[i] ? (
              <p class="field-error" id={`${rowId}-error`}>
                {rowErrors[i]}
              </p>
            ) : null}
            {warn ? (
              <p class="notice notice-danger" id={`${rowId}-warn`} role="alert">
                <strong>This pattern matches any URL.</strong> Any website could receive your users' sign-in codes. Limit it to addresses you control.
              </p>
            ) : null}
          </div>
        );
      })}
      {error ? (
        <p class="field-error" id={`${id}-error`} role="alert">
          {error}
        </p>
      ) : null}
      <Button variant="secondary" disabled={rows.length >= MAX_ROWS} onClick={() => onChange([...rows, { uri: "", match: "equals" }])}>
        Add redirect URI
      </Button>
    </fieldset>
  );
}
