/**
 * The peer for the OAuth benchmark: panva's oidc-provider (9.13) with its default in-memory
 * adapter, ES256 ID tokens, introspection, revocation, userinfo and the client credentials grant,
 * one confidential client (client_secret_basic) and one account.
 * Usage: PORT=… bun test/bench/peer-server.ts
 *
 * Tokens are made through the provider's own models, never over HTTP. Once listening it prints
 * one JSON line: {"ready":true, issuer, client_id, client_secret, access_token, refresh_tokens, seed_ms}.
 * Each line `seed N` on stdin makes a fresh access token and N fresh refresh tokens (one grant
 * each) and prints them the same way: the in-memory adapter is an LRU of about 1,000 entries, so
 * tokens made before another scenario's load are gone by the time they are measured.
 */
import { randomBytes } from "node:crypto";
import { createServer } from "node:http";
import { exportJWK, generateKeyPair } from "jose";
import type { Client } from "oidc-provider";

const port = Number(process.env.PORT);
if (!port) throw new Error("PORT is required");
const issuer = `http://127.0.0.1:${port}`;
const REDIRECT = "https://rp.example.com/callback";
const CLIENT_ID = "bench";
const CLIENT_SECRET = randomBytes(32).toString("base64url");
const ACCOUNT = "bench-user";
// The same scopes as Cairn's seeded rows: no openid on the refresh grant (no ID token to sign).
const ACCESS_SCOPE = "openid profile email";
const REFRESH_SCOPE = "profile offline_access";

// oidc-provider explains its defaults and warns that Bun is not Node.js on the console: silenced
// before it is loaded.
console.warn = () => {};
console.info = () => {};
const { default: Provider } = await import("oidc-provider");

const { privateKey } = await generateKeyPair("ES256", { extractable: true });
const jwk = { ...(await exportJWK(privateKey)), kid: "bench-es256", alg: "ES256", use: "sig" };

const provider = new Provider(issuer, {
  clients: [
    {
      client_id: CLIENT_ID,
      client_secret: CLIENT_SECRET,
      redirect_uris: [REDIRECT],
      grant_types: ["authorization_code", "refresh_token", "client_credentials"],
      response_types: ["code"],
      token_endpoint_auth_method: "client_secret_basic",
      id_token_signed_response_alg: "ES256",
      scope: "openid profile email offline_access",
    },
  ],
  jwks: { keys: [jwk] },
  enabledJWA: { idTokenSigningAlgValues: ["ES256"] },
  claims: {
    openid: ["sub"],
    profile: ["name", "preferred_username"],
    email: ["email", "email_verified"],
  },
  scopes: ["openid", "offline_access", "profile", "email"],
  features: {
    devInteractions: { enabled: false },
    introspection: { enabled: true },
    revocation: { enabled: true },
    userinfo: { enabled: true },
    clientCredentials: { enabled: true },
  },
  // rotateRefreshToken is left at its default: a confidential client's refresh token rotates only
  // once 70% of its 14-day lifetime has passed, so within the benchmark it is never rotated.
  async findAccount(_ctx, sub) {
    return {
      accountId: sub,
      async claims() {
        return { sub, name: "Bench User", preferred_username: "bench", email: "bench@example.com", email_verified: true };
      },
    };
  },
});

let serverErrors = 0;
provider.on("server_error", (_ctx, err) => {
  if (serverErrors++ < 5) process.stderr.write(`peer server_error: ${err.stack ?? err}\n`);
});

const client = (await provider.Client.find(CLIENT_ID)) as Client;

async function grant(scope: string): Promise<string> {
  const g = new provider.Grant({ accountId: ACCOUNT, clientId: CLIENT_ID });
  g.addOIDCScope(scope);
  return g.save();
}

/** A fresh access token (openid profile email) and `n` refresh tokens, each on its own grant. */
async function seed(n: number) {
  const started = performance.now();
  const access = await new provider.AccessToken({
    accountId: ACCOUNT,
    client,
    grantId: await grant(ACCESS_SCOPE),
    gty: "authorization_code",
    scope: ACCESS_SCOPE,
  }).save();
  const refresh: string[] = [];
  for (let i = 0; i < n; i++) {
    const rt = new provider.RefreshToken({
      accountId: ACCOUNT,
      client,
      grantId: await grant(REFRESH_SCOPE),
      gty: "authorization_code",
      scope: REFRESH_SCOPE,
      authTime: Math.floor(Date.now() / 1000),
    });
    refresh.push(await rt.save());
  }
  return { access_token: access, refresh_tokens: refresh, seed_ms: performance.now() - started };
}

const server = createServer(provider.callback());
await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
const first = await seed(Number(process.env.PEER_SEED ?? 100));
console.log(JSON.stringify({ ready: true, issuer, client_id: CLIENT_ID, client_secret: CLIENT_SECRET, ...first }));

let pending = "";
process.stdin.setEncoding("utf8");
process.stdin.on("data", async (chunk: string) => {
  pending += chunk;
  for (let nl = pending.indexOf("\n"); nl >= 0; nl = pending.indexOf("\n")) {
    const [command, count] = pending.slice(0, nl).trim().split(" ");
    pending = pending.slice(nl + 1);
    if (command === "seed") console.log(JSON.stringify({ ...(await seed(Number(count ?? 100))), server_errors: serverErrors }));
  }
});
process.stdin.on("end", () => server.close(() => process.exit(0)));
