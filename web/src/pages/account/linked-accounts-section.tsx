import type { LinkedAccounts } from "../../api/social.ts";
import { socialApi } from "../../api/social.ts";
import { Button } from "../../components/button.tsx";
import { Card } from "../../components/card.tsx";
import { formatTime } from "../../lib/format.ts";
import type { Loaded } from "../../lib/use-load.ts";
import { useAction } from "../../lib/use-action.ts";

const when = (ms: number | null) => (ms === null ? "never" : formatTime(ms));

/**
 * Accounts at other providers that sign in to this one. Linking runs a sign-in at the provider in
 * this browser and comes back here; the last way into the account cannot be unlinked.
 */
export function LinkedAccountsSection({ linked }: { linked: Loaded<LinkedAccounts> }) {
  const { busy, run } = useAction();
  const data = linked.data;
  const linkedSlugs = new Set((data?.social_accounts ?? []).map((a) => a.provider));
  const available = (data?.providers ?? []).filter((p) => !linkedSlugs.has(p.slug));
  const link = (slug: string) =>
    run(`link:${slug}`, async () => {
      window.location.assign(await socialApi.link(slug));
    });
  const unlink = (id: string, name: string) =>
    run(
      `unlink:${id}`,
      async () => {
        await socialApi.unlink(id);
        await linked.reload();
      },
      `${name} is unlinked.`,
    );
  return (
    <Card id="linked-accounts" title="Linked accounts">
      {linked.error ? <p class="form-error">{linked.error}</p> : null}
      <p class="muted">Sign in with an account you already have elsewhere. Apps you allow can see which accounts are linked.</p>
      <ul class="rows" aria-label="Your linked accounts">
        {(data?.social_accounts ?? []).map((a) => (
          <li key={a.id} class="row">
            <div class="grow">
              <strong>{a.provider_name}</strong> {a.login || a.email}
              <div class="muted small">
                Linked {when(a.created_at)} · last used {when(a.last_used_at)}
              </div>
            </div>
            <Button
              variant="danger"
              busy={busy === `unlink:${a.id}`}
              onClick={() => void unlink(a.id, a.provider_name)}
              aria-label={`Unlink ${a.provider_name}`}
            >
              Unlink
            </Button>
          </li>
        ))}
      </ul>
      {data && data.social_accounts.length === 0 ? <p class="empty-inline">No linked account yet.</p> : null}
      {available.length > 0 ? (
        <div class="form-actions start">
          {available.map((p) => (
            <Button key={p.slug} variant="secondary" busy={busy === `link:${p.slug}`} onClick={() => void link(p.slug)}>
              Link {p.name}
            </Button>
          ))}
        </div>
      ) : null}
      {data && data.providers.length === 0 && data.social_accounts.length === 0 ? (
        <p class="muted small">This site has no other sign-in providers set up.</p>
      ) : null}
    </Card>
  );
}
