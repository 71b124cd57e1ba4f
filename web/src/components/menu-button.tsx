import { useEffect, useId, useRef, useState } from "preact/hooks";

export type MenuItem = { key: string; label: string; danger?: boolean; onSelect: () => void };

type Props = { label: string; text: string; items: MenuItem[]; class?: string };

const itemsOf = (menu: HTMLElement | null) => [...(menu?.querySelectorAll<HTMLElement>('[role="menuitem"]') ?? [])];

/**
 * A button that opens a menu of actions (the WAI-ARIA menu button pattern): arrows move between
 * items, Escape closes and returns focus to the button, Tab or a click elsewhere closes.
 */
export function MenuButton({ label, text, items, class: className = "" }: Props) {
  const [open, setOpen] = useState(false);
  const wrap = useRef<HTMLSpanElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  const menu = useRef<HTMLDivElement>(null);
  const menuId = useId();

  useEffect(() => {
    if (!open) return;
    itemsOf(menu.current)[0]?.focus();
    const outside = (e: PointerEvent) => {
      if (!wrap.current?.contains(e.target as Node)) setOpen(false);
    };
    document.addEventListener("pointerdown", outside);
    return () => document.removeEventListener("pointerdown", outside);
  }, [open]);

  const close = () => {
    setOpen(false);
    button.current?.focus();
  };
  const onMenuKey = (e: KeyboardEvent) => {
    const all = itemsOf(menu.current);
    const at = all.indexOf(document.activeElement as HTMLElement);
    const to = { ArrowDown: at + 1, ArrowUp: at - 1, Home: 0, End: all.length - 1 }[e.key];
    if (to !== undefined) {
      e.preventDefault();
      all[(to + all.length) % all.length]?.focus();
    } else if (e.key === "Escape") {
      // Only the menu closes, not a dialog it may sit in.
      e.preventDefault();
      e.stopPropagation();
      close();
    } else if (e.key === "Tab") setOpen(false);
  };

  return (
    <span class="menu" ref={wrap}>
      <button
        ref={button}
        type="button"
        class={className}
        aria-label={label}
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={open ? menuId : undefined}
        onClick={() => setOpen(!open)}
        onKeyDown={(e) => {
          if (e.key === "ArrowDown" || e.key === "ArrowUp") {
            e.preventDefault();
            setOpen(true);
          }
        }}
      >
        {text} <span aria-hidden="true">▾</span>
      </button>
      {open ? (
        <div id={menuId} ref={menu} class="menu-list" role="menu" aria-label={label} onKeyDown={onMenuKey}>
          {items.map((item) => (
            <button
              key={item.key}
              type="button"
              role="menuitem"
              tabIndex={-1}
              class={`menu-item${item.danger ? " menu-item-danger" : ""}`}
              data-action={item.key}
              onClick={() => {
                // Focus goes back to the button first, so a dialog the item opens returns it there.
                close();
                item.onSelect();
              }}
            >
              {item.label}
            </button>
          ))}
        </div>
      ) : null}
    </span>
  );
}
