import type { SignedUp } from "./identity.ts";

export type Registered = {
  clientId: string;
  /** Absent for public clients. */
  secret: string | undefined;
  /** Every placeholder's value, as the snippet shows them (issuer, client_id, redirect_uri, jwks_uri…). */
  values: Record<string, string>;
  /** The snippet with the real values. */
  text: string;
};

/** Registers an app from catalog entry `id` as the dashboard does (POST /api/oauth/me/integrations/:id). */
export async function registerIntegration(
  user: SignedUp,
  id: string,
  answer: { base_url?: string; redirect_uri?: string; name?: string },
): Promise<Registered> {
  const res = await user.browser.json("POST", `/api/oauth/me/integrations/${id}`, answer);
  if (res.status !== 201) throw new Error(`registering ${id}: ${res.status} ${JSON.stringify(res.data)}`);
  return { clientId: res.data.client_id, secret: res.data.client_secret, values: res.data.setup.values, text: res.data.setup.text };
}
