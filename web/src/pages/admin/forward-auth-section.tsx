import { useEffect, useState } from "preact/hooks";
import { type ForwardAuthRule, forwardAuthApi } from "../../api/forward-auth.ts";
import { Button } from "../../components/button.tsx";
import { Card } from "../../components/card.tsx";
import { ConfirmDialog } from "../../components/confirm-dialog.tsx";
import { useAction } from "../../lib/use-action.ts";
import { useLoad } from "../../lib/use-load.ts";
import { RuleDialog } from "./forward-auth-rule-dialog.tsx";
import { whoPasses } from "./forward-auth-rule-form.ts";
import { RuleTest } from "./forward-auth-test.tsx";

const NO_CHOICES = { teams: [], groups: [] };

/** The rule's paths and methods, in words. */
function scopeOf(rule: ForwardAuthRule): string {
  const paths = rule.path_prefixes.length ? rule.path_prefixes.join(", ") : "every path";
  return rule.methods.length ? `${paths} · ${rule.methods.join(", ")}` : paths;
}

/**
 * Forward auth (Admin → Forward auth): the rules that decide who reaches the apps behind the
 * reverse proxy, in order (the first that matches decides, none = refused), and "test this rule".
 */
export function ForwardAuthSection() {
  const rules = useLoad(() => forwardAuthApi.rules());
  const choices = useLoad(() => forwardAuthApi.choices());
  const { run } = useAction();
  const [editing, setEditing] = useState<ForwardAuthRule | "new" | null>(null);
  const [removing, setRemoving] = useState<ForwardAuthRule | null>(null);
  const [moved, setMoved] = useState<{ id: string; way: "up" | "down" } | null>(null);
  const names = new Map([...(choices.data?.teams ?? []), ...(choices.data?.groups ?? [])].map((c) => [c.value, c.label]));
  const list = rules.data ?? [];

  const move = (rule: ForwardAuthRule, to: number, way: "up" | "down") =>
    run(
      `${way}:${rule.id}`,
      async () => {
        await forwardAuthApi.update(rule.id, { position: to });
        setMoved({ id: rule.id, way });
        await rules.reload();
      },
      `${rule.host} moved ${way}.`,
    );

  // Moving the row takes the focus from its button: give it back once drawn, or to the row at either end.
  useEffect(() => {
    if (!moved) return;
    const row = document.getElementById(`forward-auth-rule-${moved.id}`);
    (row?.querySelector<HTMLButtonElement>(`[data-move="${moved.way}"]:not([disabled])`) ?? row)?.focus();
    setMoved(null);
  }, [rules.data]);

  return (
    <Card id="forward-auth" title="Forward auth">
      <p class="muted">
        Apps without OpenID Connect, protected at your reverse proxy: it asks Cairn about every request. The first rule that matches the host, path and method
        decides; a request no rule matches is refused. The proxy's configuration is in <a href="/apps#new-app">My apps → Register an app</a> (nginx, Caddy,
        Traefik).
      </p>
      {rules.error ? <p class="form-error">{rules.error}</p> : null}
      {choices.error ? <p class="form-error">{choices.error}</p> : null}
      {rules.data && list.length === 0 ? <p class="empty-inline">No rule yet: every proxied request is refused.</p> : null}
      <ol class="rows" aria-label="Forward auth rules">
        {list.map((r, i) => (
          <li key={r.id} id={`forward-auth-rule-${r.id}`} class="row" tabIndex={-1} aria-label={`${i + 1}. ${r.host}`}>
            <div class="grow">
              <strong>{r.host}</strong> {r.require_mfa ? <span class="badge">Second factor</span> : null}
              <span class="row-meta">
                {scopeOf(r)} · {whoPasses(r, names)}
                {r.bypass_paths.length ? ` · open: ${r.bypass_paths.join(", ")}` : ""}
              </span>
            </div>
            <Button variant="ghost" data-move="up" disabled={i === 0} onClick={() => void move(r, i - 1, "up")} aria-label={`Move ${r.host} up`}>
              ↑
            </Button>
            <Button
              variant="ghost"
              data-move="down"
              disabled={i === list.length - 1}
              onClick={() => void move(r, i + 1, "down")}
              aria-label={`Move ${r.host} down`}
            >
              ↓
            </Button>
            <Button variant="secondary" onClick={() => setEditing(r)} aria-label={`Edit ${r.host}`}>
              Edit
            </Button>
            <Button variant="danger" onClick={() => setRemoving(r)} aria-label={`Delete ${r.host}`}>
              Delete
            </Button>
          </li>
        ))}
      </ol>
      <div class="form-actions start">
        <Button variant="secondary" onClick={() => setEditing("new")}>
          Add a rule
        </Button>
      </div>
      {editing ? (
        <RuleDialog
          rule={editing === "new" ? undefined : editing}
          choices={choices.data ?? NO_CHOICES}
          onClose={() => setEditing(null)}
          onSaved={rules.reload}
        />
      ) : null}
      <ConfirmDialog
        open={removing !== null}
        title={`Delete the rule for ${removing?.host ?? ""}?`}
        confirmLabel="Delete"
        onClose={() => setRemoving(null)}
        onConfirm={async () => {
          await forwardAuthApi.remove((removing as ForwardAuthRule).id);
          setRemoving(null);
          await rules.reload();
        }}
      >
        <p>Requests it covered go to the next rule that matches them, or are refused when none does.</p>
      </ConfirmDialog>
      <RuleTest />
    </Card>
  );
}
