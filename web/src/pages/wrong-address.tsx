import { Card } from "../components/card.tsx";

/** This machine only: no other machine reaches Cairn at such an address. */
function isLoopback(origin: string): boolean {
  const host = new URL(origin).hostname;
  return host === "localhost" || host.endsWith(".localhost") || host === "[::1]" || /^127\.\d+\.\d+\.\d+$/.test(host);
}

/** The issuer other machines would use: this machine's name or network address in place of a loopback one. */
function forOtherMachines(opened: string): string {
  const url = new URL(opened);
  return `${url.protocol}//<server-ip>${url.port ? `:${url.port}` : ""}`;
}

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
        {isLoopback(opened) ? (
          // A loopback address works on this machine alone: suggesting it for others would send them nowhere.
          <p>
            To use Cairn from other machines on your network, start it with the address they will type: this machine’s name or its address on your network, as
            in <code>CAIRN_ISSUER={forOtherMachines(opened)}</code> (the README’s quick start explains it).
          </p>
        ) : (
          <p>
            If people reach this server at <span class="mono">{opened}</span> (for example from other machines on your network), start Cairn with{" "}
            <code>CAIRN_ISSUER={opened}</code> instead.
          </p>
        )}
      </Card>
    </main>
  );
}
