import * as client from "openid-client";
import { jarFetch } from "../../helpers/cookie-jar.ts";
import { PASSWORD, type SignedUp } from "../../helpers/identity.ts";
import type { TwoInstances } from "./two-instances.fixture.ts";

/** Where a request goes: an instance directly, or the balancer (`{ url: issuer }`). */
export type Target = { url: string };

/**
 * A person with one browser (one cookie jar) that reaches the site through the balancer or at
 * either instance directly: `at(target)` is the same person and cookies, sending to `target`.
 */
export type Person = SignedUp & { at(target: Target): SignedUp };

function person(t: TwoInstances, user: SignedUp["user"], token: string, cookies: Map<string, string>): Person {
  const at = (target: Target): SignedUp => {
    const browser = jarFetch(target.url, t.issuer, cookies);
    return {
      user,
      token,
      browser,
      bearer: (method, path, body) => browser.json(method, path, body, { authorization: `Bearer ${token}`, cookie: "" }),
    };
  };
  return { ...at({ url: t.issuer }), at };
}

/** Registers `username` through `target` (the first account of the site is its admin); answers them signed in there. */
export async function register(t: TwoInstances, target: Target, username: string): Promise<Person> {
  const browser = jarFetch(target.url, t.issuer);
  const res = await browser.json("POST", "/api/auth/register", { username, email: `${username}@example.com`, password: PASSWORD, name: username });
  if (res.status !== 201) throw new Error(`sign-up of ${username} at ${target.url} failed: ${res.status} ${JSON.stringify(res.data)}`);
  return person(t, res.data.user, res.data.session_token, browser.cookies);
}

/** Signs `login` in with the password through `target`, in a new browser. */
export async function signIn(t: TwoInstances, target: Target, login: string): Promise<Person> {
  const browser = jarFetch(target.url, t.issuer);
  const res = await browser.json("POST", "/api/auth/login", { login, password: PASSWORD });
  if (res.status !== 200) throw new Error(`sign-in of ${login} at ${target.url} failed: ${res.status} ${JSON.stringify(res.data)}`);
  return person(t, res.data.user, res.data.session_token, browser.cookies);
}

/** The site's admin (the first account, through the balancer), with registration opened for the others. */
export async function adminWithOpenRegistration(t: TwoInstances): Promise<Person> {
  const admin = await register(t, { url: t.issuer }, "admin");
  const opened = await admin.browser.json("PATCH", "/api/oauth/admin/config", { registration: "open" });
  if (opened.status !== 200) throw new Error(`opening registration failed: ${opened.status} ${JSON.stringify(opened.data)}`);
  return admin;
}

/**
 * openid-client's view of the issuer (the balancer's URL, as discovery names it) for a client,
 * every request of it sent to `target` instead: the same relying party talking to one instance.
 */
export function relyingPartyAt(t: TwoInstances, target: Target, clientId: string, secret: string | undefined) {
  const toTarget: client.CustomFetch = (url, options) => fetch(target.url + url.slice(t.issuer.length), options as RequestInit);
  return client.discovery(
    new URL(t.issuer),
    clientId,
    { id_token_signed_response_alg: "ML-DSA-65" },
    secret ? client.ClientSecretBasic(secret) : client.None(),
    { execute: [client.allowInsecureRequests], [client.customFetch]: toTarget },
  );
}
