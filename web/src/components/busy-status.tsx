import type { ComponentChildren } from "preact";

type Props = { busy: boolean; label: string; children: ComponentChildren };

/**
 * Long work in progress: a moving bar and what is happening, announced by screen readers. The
 * live region stays in the page while idle, so the change to busy is heard.
 */
export function BusyStatus({ busy, label, children }: Props) {
  return (
    <div class="busy-status" role="status">
      {busy ? (
        <>
          <progress aria-label={label} />
          <span>{children}</span>
        </>
      ) : null}
    </div>
  );
}
