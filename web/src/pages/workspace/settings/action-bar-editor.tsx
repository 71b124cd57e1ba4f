import type { ActionKey } from "../../../api/workspace.ts";
import { Button } from "../../../components/button.tsx";
import { ACTION_LABELS, actionRows, moveAction, toggleAction } from "./action-bar.ts";

type Props = { value: ActionKey[] | null; onValue: (bar: ActionKey[] | null) => void };

/** Which todo actions appear in the action bar, and in what order; null follows the default. */
export function ActionBarEditor({ value, onValue }: Props) {
  const rows = actionRows(value);
  const shownCount = rows.filter((row) => row.shown).length;
  return (
    <fieldset class="wss-action-bar">
      <legend>Action bar</legend>
      <p class="field-hint">
        {value === null ? "Using the default actions and order." : "Your own selection and order."}{" "}
        <Button variant="ghost" onClick={() => onValue(null)} disabled={value === null}>
          Use default
        </Button>
      </p>
      <ol class="wss-action-list">
        {rows.map(({ key, shown, position }) => (
          <li key={key} class={`wss-action-row${shown ? "" : " wss-action-hidden"}`}>
            <label class="wss-action-toggle">
              <input type="checkbox" checked={shown} onChange={(e) => onValue(toggleAction(value, key, e.currentTarget.checked))} />
              {ACTION_LABELS[key]}
            </label>
            <span class="wss-action-moves">
              <button
                type="button"
                class="btn btn-ghost wss-icon-btn"
                aria-label={`Move ${ACTION_LABELS[key]} up`}
                disabled={!shown || position === 0}
                onClick={() => onValue(moveAction(value, key, -1))}
              >
                ↑
              </button>
              <button
                type="button"
                class="btn btn-ghost wss-icon-btn"
                aria-label={`Move ${ACTION_LABELS[key]} down`}
                disabled={!shown || position === shownCount - 1}
                onClick={() => onValue(moveAction(value, key, 1))}
              >
                ↓
              </button>
            </span>
          </li>
        ))}
      </ol>
    </fieldset>
  );
}
