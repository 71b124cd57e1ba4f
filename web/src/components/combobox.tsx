import { useEffect, useId, useMemo, useState } from "preact/hooks";

type ComboOption = { value: string; label: string };

type Props = {
  /** The input's id, for its <label>. */
  id: string;
  value: string;
  /** The text the input shows for the chosen value while no one is searching. */
  display: string;
  /** The options matching what was typed ("" lists them all). */
  search: (query: string) => ComboOption[];
  onValue: (value: string) => void;
  /** Names the list of options for screen readers ("Time zones"). */
  listLabel: string;
  /** How many options are found, said as it changes ("12 time zones"). */
  countText: (count: number) => string;
  disabled?: boolean;
  describedBy?: string;
  invalid?: boolean;
};

/**
 * A filterable single choice, as WAI-ARIA's "combobox with listbox popup" pattern describes: typing
 * filters the list, arrows move through it (aria-activedescendant keeps focus in the input), Enter
 * or a click chooses, Escape closes it and leaves the value as it was.
 */
export function Combobox({ id, value, display, search, onValue, listLabel, countText, disabled, describedBy, invalid }: Props) {
  // null: closed, the input shows the chosen value; a string: open, filtered by it.
  const [query, setQuery] = useState<string | null>(null);
  const [active, setActive] = useState(0);
  const listId = useId();
  const options = useMemo(() => (query === null ? [] : search(query)), [query, search]);
  const optionId = (i: number) => `${listId}-${i}`;
  const open = query !== null;

  useEffect(() => {
    if (open) document.getElementById(optionId(active))?.scrollIntoView({ block: "nearest" });
  }, [open, active]);

  const show = (text: string) => {
    const found = search(text);
    setQuery(text);
    // Opening without a search starts at the chosen option, so arrows move from where one is.
    setActive(
      text === ""
        ? Math.max(
            0,
            found.findIndex((o) => o.value === value),
          )
        : 0,
    );
  };
  const choose = (option: ComboOption | undefined) => {
    if (option) onValue(option.value);
    setQuery(null);
  };

  const onKeyDown = (e: KeyboardEvent) => {
    if (e.key === "ArrowDown" || e.key === "ArrowUp") {
      e.preventDefault();
      if (!open) return show("");
      const step = e.key === "ArrowDown" ? 1 : -1;
      setActive((i) => Math.min(Math.max(i + step, 0), Math.max(options.length - 1, 0)));
    } else if (e.key === "Enter" && open) {
      e.preventDefault();
      choose(options[active]);
    } else if (e.key === "Escape" && open) {
      // Only the list closes, not a dialog around it.
      e.preventDefault();
      e.stopPropagation();
      setQuery(null);
    }
  };

  return (
    <div class="combobox">
      <input
        id={id}
        class="input"
        role="combobox"
        aria-autocomplete="list"
        aria-expanded={open}
        aria-controls={listId}
        aria-activedescendant={open && options[active] ? optionId(active) : undefined}
        aria-describedby={describedBy}
        aria-invalid={invalid || undefined}
        autocomplete="off"
        spellcheck={false}
        disabled={disabled}
        value={open ? query : display}
        placeholder={display}
        onFocus={(e) => e.currentTarget.select()}
        onClick={() => open || show("")}
        onInput={(e) => show(e.currentTarget.value)}
        onKeyDown={onKeyDown}
        onBlur={() => setQuery(null)}
      />
      <div id={listId} class="combobox-list" role="listbox" aria-label={listLabel} hidden={!open}>
        {options.map((option, i) => (
          // biome-ignore lint/a11y/useKeyWithClickEvents: the input's arrows and Enter are the keyboard's way; focus never leaves it
          <div
            key={option.value}
            id={optionId(i)}
            role="option"
            // Reached through the input's aria-activedescendant, never by Tab.
            tabIndex={-1}
            class={`combobox-option${i === active ? " active" : ""}`}
            aria-selected={option.value === value}
            // Before the input's blur, which would close the list under the pointer.
            onMouseDown={(e) => e.preventDefault()}
            onClick={() => choose(option)}
          >
            {option.label}
          </div>
        ))}
        {/* Said by the count below; this is for the eyes. */}
        {open && options.length === 0 ? (
          <p class="combobox-empty" aria-hidden="true">
            Nothing matches.
          </p>
        ) : null}
      </div>
      <span class="visually-hidden" aria-live="polite">
        {open ? countText(options.length) : ""}
      </span>
    </div>
  );
}
