import { signal } from "@preact/signals";
import { FOCUS_PENDING } from "../keyboard/use-tree-keyboard.ts";

/** Whether the keyboard shortcuts dialog is open: the `?` key and the sidebar's button open it. */
export const shortcutsOpen = signal(false);

export type Shortcut = { keys: string[][]; what: string };

/** Every key the workspace answers to, by where it works; the dialog lists exactly these. */
export const SHORTCUT_GROUPS: { title: string; shortcuts: Shortcut[] }[] = [
  {
    title: "Anywhere in the workspace",
    shortcuts: [
      { keys: [["?"]], what: "Show these shortcuts" },
      { keys: [["N"]], what: "Go to New todo in the open set" },
      { keys: [["Esc"]], what: "Close a dialog or a menu" },
    ],
  },
  {
    title: "Adding and editing a todo",
    shortcuts: [
      { keys: [["Enter"]], what: "Add the todo (New todo and a sub-todo field stay open for the next one), or save an edited title" },
      { keys: [["Esc"]], what: "Stop adding or editing, without saving, back to the todo" },
    ],
  },
  {
    title: "On a focused todo or set, where you may reorder them",
    shortcuts: [
      { keys: [["Alt", "↑"]], what: "Move it up" },
      { keys: [["Alt", "↓"]], what: "Move it down" },
    ],
  },
  {
    title: "In the list of todos (one Tab stop)",
    shortcuts: [
      { keys: [["↑"], ["↓"]], what: "Go to the previous or next todo, sub-todos included" },
      { keys: [["→"], ["←"]], what: "Go to the first sub-todo, or back to the parent todo" },
      { keys: [["Home"], ["End"]], what: "Go to the first or last todo" },
      { keys: [["Space"]], what: "Complete or reopen the focused todo" },
      { keys: [["Tab"]], what: "Go into the todo's checkbox and actions, then out of the list" },
      { keys: [["Esc"]], what: "From a todo's checkbox, actions or comment, back to the todo" },
    ],
  },
  {
    title: "In a More actions menu",
    shortcuts: [
      { keys: [["↑"], ["↓"]], what: "Go to the previous or next action" },
      { keys: [["Enter"]], what: "Run the action" },
    ],
  },
];

// Inputs that take no typed text: a shortcut pressed on a focused checkbox still counts.
const KEYLESS_INPUTS = new Set(["checkbox", "radio", "button", "submit", "reset", "range", "color", "file", "image"]);

/** Keys typed into a text field are text, not shortcuts. */
export function isTyping(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target.isContentEditable || target instanceof HTMLTextAreaElement || target instanceof HTMLSelectElement) return true;
  return target instanceof HTMLInputElement && !KEYLESS_INPUTS.has(target.type);
}

/** The workspace's page-wide keys: `?` opens the shortcuts, `n` goes to New todo. */
export function onWorkspaceKey(e: KeyboardEvent): void {
  if (e.defaultPrevented || e.repeat || e.ctrlKey || e.metaKey || e.altKey || isTyping(e.target)) return;
  // A dialog already has the keyboard; its own keys (and Escape) are its business.
  if (document.querySelector("dialog[open]")) return;
  // Focus is on its way to a todo just added or moved: a key landing on <body> meanwhile is not a shortcut.
  if (e.target === document.body && document.querySelector(`[${FOCUS_PENDING}]`)) return;
  if (e.key === "?") {
    e.preventDefault();
    shortcutsOpen.value = true;
  } else if (e.key === "n" || e.key === "N") {
    const input = document.querySelector<HTMLInputElement>(".ws-todos > .ws-title-input input");
    if (!input || input.disabled) return;
    e.preventDefault();
    input.focus();
  }
}
