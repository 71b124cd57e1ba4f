import { type LinkAudience, localhostWarning } from "../../../src/contract/reachability.ts";

/** Says so where links on a localhost address are handed to other machines (contract/reachability.ts). */
export function LocalhostWarning({ issuer, audience }: { issuer: string; audience: LinkAudience }) {
  const warning = localhostWarning(issuer, audience);
  return warning ? (
    <div class="notice notice-warning" role="note">
      <p>
        <strong>{warning.summary}</strong> {warning.detail}
      </p>
    </div>
  ) : null;
}
