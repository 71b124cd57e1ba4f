/**
 * bench:oauth's scenarios on one Cairn server: a user and two apps made through the API, one-use
 * codes and refresh tokens seeded into its database (oauth-seed.ts), and for each scenario the
 * load that measures it. The same on either store; `extra` adds to every load's options (the
 * PostgreSQL server's pid, whose CPU is measured apart).
 */
import { randomBytes } from "node:crypto";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { calculateJwkThumbprint, exportJWK, generateKeyPair, SignJWT } from "jose";
import { createTokenIds } from "../../src/oauth/tokens/token-key.ts";
import { createSecretBox } from "../../src/shared/crypto.ts";
import { type Load, type LoadOptions, load, type Server } from "./harness.ts";
import { type SeedDb, seedOAuth } from "./oauth-seed.ts";

const REDIRECT = "https://rp.example.com/callback";

export const CODE_GRANT = "POST /api/oauth/token (code, ML-DSA-65 ID token)";
export const INTROSPECTION = "POST /api/oauth/introspect";

export type Scenario = { label: string; budget: string; load: () => Load };

export type OAuthTarget = {
  scenarios: Scenario[];
  /** Introspection's request (the client's Basic credentials, the seeded access token), for loads of its own. */
  introspect: LoadOptions;
};

type Prepare = {
  /** The instance's secret (CAIRN_SECRET, or its data folder's key): token values carry row ids sealed under it. */
  secret: string;
  seed: SeedDb;
  /** Codes and refresh tokens of each kind written beforehand, shared out over `runs` runs. */
  oneUse: number;
  runs: number;
  seconds: number;
  extra?: LoadOptions;
};

export async function prepareOAuth(server: Server, { secret, seed, oneUse, runs, seconds, extra = {} }: Prepare): Promise<OAuthTarget> {
  const post = async (path: string, body: unknown, headers: Record<string, string> = {}) => {
    const res = await fetch(server.url + path, {
      method: "POST",
      headers: { "content-type": "application/json", origin: server.url, ...headers },
      body: JSON.stringify(body),
    });
    if (!res.ok) throw new Error(`POST ${path}: ${res.status} ${await res.text()}`);
    return res.json();
  };
  const { session_token, user } = await post("/api/auth/register", { username: "bench", email: "bench@example.com", password: "bench password 123" });
  const asUser = { authorization: `Bearer ${session_token}` };
  const app = await post("/api/oauth/me/clients", { name: "Bench", redirect_uris: [{ uri: REDIRECT }] }, asUser);
  const robot = await post(
    "/api/oauth/me/clients",
    { name: "Robot", redirect_uris: [], grant_types: ["client_credentials"], client_credentials_scopes: ["jobs:run"] },
    asUser,
  );
  const basic = (c: { client_id: string; client_secret: string }) => `Basic ${Buffer.from(`${c.client_id}:${c.client_secret}`).toString("base64")}`;
  const form = { "content-type": "application/x-www-form-urlencoded", authorization: basic(app) };
  const robotForm = { ...form, authorization: basic(robot) };
  await fetch(`${server.url}/.well-known/jwks.json`); // creates the signing keys

  // RFC 9449: one key for the bound grants; each request gets its own proof, signed just before its run.
  const dpopKey = await generateKeyPair("ES256");
  const dpopJwk = await exportJWK(dpopKey.publicKey);
  const ids = createTokenIds(createSecretBox(secret).derive("token ids"));
  const seeded = await seedOAuth(seed, {
    clientId: app.client_id,
    userId: user.id,
    redirectUri: REDIRECT,
    ids,
    count: oneUse,
    dpopJkt: await calculateJwkThumbprint(dpopJwk, "sha256"),
  }).finally(() => seed.close());

  const introspect: LoadOptions = { method: "POST", headers: form, body: `token=${seeded.access}` };
  // A token the server cannot find is introspected cheaply as inactive: that rate would measure nothing.
  const found = await (await fetch(`${server.url}/api/oauth/introspect`, { method: "POST", headers: form, body: introspect.body })).json();
  if (found.active !== true) throw new Error(`the seeded access token is not active: ${JSON.stringify(found)}`);

  // Each run gets the next unused slice, so no code or refresh token is ever sent twice.
  const perRun = Math.floor(oneUse / runs);
  const slices = (name: string, lines: string[]) => {
    let run = 0;
    return () => {
      const file = join(server.dir, `${name}-${run}.txt`);
      writeFileSync(file, lines.slice(run * perRun, ++run * perRun).join("\n"));
      return file;
    };
  };
  /** Each body with a fresh proof for the token endpoint (iat now: the run starts within the proof window). */
  const withProofs = (file: () => string) => async () => {
    const path = file();
    const lines = (await Bun.file(path).text()).split("\n").filter(Boolean);
    const proofs = await Promise.all(
      lines.map(() =>
        new SignJWT({ jti: randomBytes(32).toString("base64url"), htm: "POST", htu: `${server.url}/api/oauth/token` })
          .setProtectedHeader({ alg: "ES256", typ: "dpop+jwt", jwk: dpopJwk })
          .setIssuedAt()
          .sign(dpopKey.privateKey),
      ),
    );
    writeFileSync(path, lines.map((line, i) => `${line}\t${proofs[i]}`).join("\n"));
    return path;
  };
  const pid = server.proc.pid;
  const at =
    (path: string, opts: LoadOptions = {}) =>
    () =>
      load(server.url + path, pid, seconds, { ...extra, ...opts });
  const oneUseBodies = (bodiesFile: LoadOptions["bodiesFile"]): LoadOptions => ({ headers: form, bodiesFile, oneUse: true });
  const codes = slices("codes", seeded.codes);
  const refresh = slices("refresh", seeded.refresh);
  const dpopRefresh = withProofs(slices("dpop-refresh", seeded.dpopRefresh));
  return {
    introspect,
    scenarios: [
      { label: "GET /.well-known/openid-configuration", budget: ">= 25,000", load: at("/.well-known/openid-configuration") },
      { label: "GET /.well-known/jwks.json", budget: ">= 25,000", load: at("/.well-known/jwks.json") },
      { label: CODE_GRANT, budget: ">= 3,000, p99 < 15 ms", load: at("/api/oauth/token", oneUseBodies(codes)) },
      { label: "POST /api/oauth/token (refresh grant)", budget: ">= 5,000", load: at("/api/oauth/token", oneUseBodies(refresh)) },
      { label: "POST /api/oauth/token (DPoP-bound refresh)", budget: "report (issue 11)", load: at("/api/oauth/token", oneUseBodies(dpopRefresh)) },
      {
        label: "POST /api/oauth/token (client credentials)",
        budget: "report (issue 11)",
        load: at("/api/oauth/token", { method: "POST", headers: robotForm, body: "grant_type=client_credentials" }),
      },
      { label: INTROSPECTION, budget: ">= 12,000", load: at("/api/oauth/introspect", introspect) },
      { label: "GET /api/oauth/userinfo", budget: ">= 12,000", load: at("/api/oauth/userinfo", { headers: { authorization: `Bearer ${seeded.access}` } }) },
    ],
  };
}

/** BENCH_ONLY=introspect,refresh: the scenarios whose label contains one of the words. */
export function wanted(label: string): boolean {
  const only = process.env.BENCH_ONLY?.split(",").filter(Boolean) ?? [];
  return only.length === 0 || only.some((word) => label.includes(word));
}
