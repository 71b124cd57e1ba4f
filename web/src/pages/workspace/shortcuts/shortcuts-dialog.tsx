import { useEffect } from "preact/hooks";
import { Button } from "../../../components/button.tsx";
import { Dialog } from "../../../components/dialog.tsx";
import { onWorkspaceKey, SHORTCUT_GROUPS, shortcutsOpen } from "./shortcuts.ts";

const isMac = typeof navigator !== "undefined" && /Mac|iPhone|iPad/.test(navigator.platform);

/** The keyboard shortcuts dialog, and the page-wide keys that open it (mounted once per workspace page). */
export function ShortcutsDialog() {
  useEffect(() => {
    document.addEventListener("keydown", onWorkspaceKey);
    return () => document.removeEventListener("keydown", onWorkspaceKey);
  }, []);
  const close = () => (shortcutsOpen.value = false);
  return (
    <Dialog
      open={shortcutsOpen.value}
      title="Keyboard shortcuts"
      onClose={close}
      actions={
        <Button variant="secondary" onClick={close}>
          Close
        </Button>
      }
    >
      <div class="shortcuts">
        {SHORTCUT_GROUPS.map((group) => (
          <section key={group.title}>
            <h3>{group.title}</h3>
            <dl>
              {group.shortcuts.map((s) => (
                <div key={s.what} class="shortcut">
                  <dt>
                    {s.keys.map((combo, i) => (
                      <span key={combo.join("+")}>
                        {i > 0 ? " or " : ""}
                        {combo.map((key, j) => (
                          <span key={key}>
                            {j > 0 ? "+" : ""}
                            <kbd>{key === "Alt" && isMac ? "⌥ Option" : key}</kbd>
                          </span>
                        ))}
                      </span>
                    ))}
                  </dt>
                  <dd>{s.what}</dd>
                </div>
              ))}
            </dl>
          </section>
        ))}
        <p class="field-hint">Keys typed into a text field are text: press Esc or Tab out of the field first.</p>
      </div>
    </Dialog>
  );
}
