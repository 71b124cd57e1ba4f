import { type Domain, identityExtrasApi } from "../../api/identity-extras.ts";
import { Button } from "../../components/button.tsx";
import { Card } from "../../components/card.tsx";
import { CopyField } from "../../components/copy-field.tsx";
import { TextField } from "../../components/field.tsx";
import { AddForm } from "../../components/add-form.tsx";
import { useAddForm } from "../../components/use-add-form.ts";
import { useAction } from "../../lib/use-action.ts";
import { useLoad } from "../../lib/use-load.ts";

/**
 * Custom domains: prove you control one with a DNS TXT record, and apps that ask for it see it
 * (the `domains` claim), and `you@that-domain` finds this sign-in (WebFinger).
 */
export function DomainsSection() {
  const list = useLoad(() => identityExtrasApi.domains());
  const { busy, run } = useAction();
  const form = useAddForm({ initial: () => ({ domain: "" }), send: ({ domain }) => identityExtrasApi.addDomain(domain), done: list.reload });
  const verify = (d: Domain) =>
    run(
      `verify:${d.id}`,
      async () => {
        await identityExtrasApi.verifyDomain(d.id);
        await list.reload();
      },
      `${d.domain} is verified.`,
    );
  const remove = (d: Domain) =>
    run(`remove:${d.id}`, async () => {
      await identityExtrasApi.removeDomain(d.id);
      await list.reload();
    });
  return (
    <Card id="domains" title="Custom domains">
      {list.error ? <p class="form-error">{list.error}</p> : null}
      <ul class="rows" aria-label="Your domains">
        {(list.data ?? []).map((d) => (
          <li key={d.id} class="row">
            <div class="grow">
              <strong>{d.domain}</strong> {d.verified ? <span class="badge badge-success">Verified</span> : <span class="badge">Not verified</span>}
              {d.verified ? null : (
                <div class="domain-proof">
                  <p class="muted">Publish this TXT record at your DNS provider, then check:</p>
                  <CopyField label={`TXT record name for ${d.domain}`} value={d.txt_record.name} />
                  <CopyField label={`TXT record value for ${d.domain}`} value={d.txt_record.value} />
                </div>
              )}
            </div>
            <Button variant="secondary" busy={busy === `verify:${d.id}`} onClick={() => void verify(d)} aria-label={`Check ${d.domain} now`}>
              Check now
            </Button>
            <Button variant="danger" busy={busy === `remove:${d.id}`} onClick={() => void remove(d)} aria-label={`Remove ${d.domain}`}>
              Remove
            </Button>
          </li>
        ))}
      </ul>
      {list.data && list.data.length === 0 ? <p class="empty-inline">No domain yet.</p> : null}
      <AddForm form={form} submitLabel="Add domain" disabled={form.values.domain.trim() === ""}>
        <TextField label="Domain" {...form.field("domain")} placeholder="example.com" autocomplete="off" />
      </AddForm>
    </Card>
  );
}
