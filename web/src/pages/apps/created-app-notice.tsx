import type { ComponentChildren } from "preact";
import { useEffect, useRef } from "preact/hooks";
import { Button } from "../../components/button.tsx";
import { CopyField } from "../../components/copy-field.tsx";

type Props = { name: string; clientId: string; secret?: string; onDone: () => void; children?: ComponentChildren };

/** The new app's credentials; a confidential app's secret is shown this once. */
export function CreatedAppNotice({ name, clientId, secret, onDone, children }: Props) {
  const ref = useRef<HTMLElement>(null);
  // The form is further down the page: bring the result into view and to the keyboard.
  useEffect(() => {
    ref.current?.scrollIntoView({ block: "start" });
    ref.current?.focus();
  }, [clientId]);
  return (
    <section ref={ref} class="notice notice-success" tabIndex={-1} aria-label="New app credentials">
      <h3>{name} is registered</h3>
      <CopyField label="Client ID" value={clientId} />
      {secret ? (
        <CopyField label="Client secret" value={secret} hint="Copy it now: it will not be shown again. If it is lost, make a new one on the app's page." />
      ) : (
        <p class="muted">A public client has no secret: it must use PKCE.</p>
      )}
      {children}
      <div class="form-actions start">
        <Button variant="secondary" onClick={onDone}>
          Done
        </Button>
        <a class="btn btn-ghost" href={`/apps/${encodeURIComponent(clientId)}`}>
          Open the app's settings
        </a>
      </div>
    </section>
  );
}
