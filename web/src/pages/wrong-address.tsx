import { Card } from "../components/card.tsx";

/**
 * Shown instead of the app when the browser opened this Cairn at another address than the one it
 * is configured as (CAIRN_ISSUER): sign-in, cookies and passkeys are bound to that address, so
 * every write from here would be refused as cross-site.
 */
export function WrongAddressPage({ opened, issuer }: { opened: string; issuer: string }) {
  const here = `${issuer}${location.pathname}${location.search}`;
  return (
    <main class="narrow wrong-address">
      <Card
        title="Open Cairn at its own address"
        footer={
          <a class="btn btn-primary" href={here}>
            Open {issuer}
          </a>
        }
      >
        <p>
          You opened <strong class="mono">{opened}</strong>, but this Cairn is configured as <strong class="mono">{issuer}</strong>. Sign-in, cookies and
          passkeys work only at that address.
        </p>
        <p>
          If people reach this server at <span class="mono">{opened}</span> (for example from other machines on your network), start Cairn with{" "}
          <code>CAIRN_ISSUER={opened}</code> instead.
        </p>
      </Card>
    </main>
  );
}
