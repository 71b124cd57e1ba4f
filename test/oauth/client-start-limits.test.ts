import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import { sql } from "drizzle-orm";
import { MAX_PENDING_STARTS } from "../../src/access/start-guard.ts";
import { DEVICE_PENDING_PER_CLIENT, DEVICE_STARTS_PER_ADDRESS, DEVICE_STARTS_PER_CLIENT } from "../../src/oauth/device/device-limits.ts";
import { deviceAuthorizations } from "../../src/oauth/device/device-authorizations.table.ts";
import { PUSHED_PENDING_PER_CLIENT, PUSHES_PER_ADDRESS, PUSHES_PER_CLIENT } from "../../src/oauth/par/par-limits.ts";
import { pushedRequests } from "../../src/oauth/par/pushed-requests.table.ts";
import { MAX_KEPT_BYTES, MAX_START_REQUEST_BYTES } from "../../src/oauth/protocol/kept-size.ts";
import { startApp, type TestApp } from "../helpers/app.ts";
import { manualClock } from "../helpers/clock.ts";
import { type SignedUp, signUp } from "../helpers/identity.ts";
import { registerApp } from "../helpers/oauth.ts";
import { postForm, REDIRECT } from "./oauth.fixtures.ts";

// Issue 39 item 8: with a public client's id anyone may push a request (RFC 9126) or start a
// device request (RFC 8628), and each writes a row. Both are limited per address and per client,
// and the rows stored are capped per client and in all.
const DEVICE_GRANT = "urn:ietf:params:oauth:grant-type:device_code";
const clock = manualClock();
let app: TestApp;
let owner: SignedUp;
beforeAll(async () => {
  app = await startApp({ env: { CAIRN_TRUST_PROXY: "true" }, overrides: { clock } });
  owner = await signUp(app, "owner");
});
afterAll(() => app.stop());

type Kind = {
  name: string;
  path: string;
  table: string;
  ok: number;
  ttlMs: number;
  perAddress: number;
  perClient: number;
  perClientCap: number;
  grantTypes?: string[];
  /** The parameters of a valid request (a public client adds its client_id). */
  form: () => [string, string][];
  /** Parameters the row would keep, more than it may. */
  bloat: () => [string, string][];
  /** Rows put straight into the table, as a flood would have left them. */
  fill: (clientId: string, n: number, expiresAt: number) => Promise<void>;
};

let filled = 0;
const KINDS: Kind[] = [
  {
    name: "RFC 9126 pushed authorization requests",
    path: "/api/oauth/par",
    table: "pushed_authorization_requests",
    ok: 201,
    ttlMs: 90_000,
    perAddress: PUSHES_PER_ADDRESS,
    perClient: PUSHES_PER_CLIENT,
    perClientCap: PUSHED_PENDING_PER_CLIENT,
    // A 1.5 KB state, as the flood that found this sent.
    form: () => [
      ["response_type", "code"],
      ["redirect_uri", REDIRECT],
      ["scope", "openid"],
      ["code_challenge", "a".repeat(43)],
      ["code_challenge_method", "S256"],
      ["state", "s".repeat(1500)],
    ],
    bloat: () => [["login_hint", "x".repeat(MAX_KEPT_BYTES)]],
    fill: async (clientId, n, expiresAt) => {
      const rows = Array.from({ length: n }, () => ({ id: `fill-${filled++}`, clientId, params: [], expiresAt }));
      await app.ctx.db.insert(pushedRequests).values(rows).run();
    },
  },
  {
    name: "RFC 8628 device authorization requests",
    path: "/api/oauth/device_authorization",
    table: "device_authorizations",
    ok: 200,
    ttlMs: 600_000,
    perAddress: DEVICE_STARTS_PER_ADDRESS,
    perClient: DEVICE_STARTS_PER_CLIENT,
    perClientCap: DEVICE_PENDING_PER_CLIENT,
    grantTypes: [DEVICE_GRANT],
    form: () => [["scope", "openid"]],
    bloat: () => Array.from({ length: 5 }, (_, i): [string, string] => ["resource", `https://api${i}.example/${"r".repeat(2000)}`]),
    fill: async (clientId, n, expiresAt) => {
      const rows = Array.from({ length: n }, () => {
        const i = filled++;
        return {
          deviceCodeHash: `fill-${i}`,
          userCode: `FILL${String(i).padStart(8, "0")}`,
          clientId,
          scopes: [],
          status: "pending" as const,
          interval: 5,
          expiresAt,
        };
      });
      await app.ctx.db.insert(deviceAuthorizations).values(rows).run();
    },
  },
];

describe.each(KINDS)("$name", (kind) => {
  const publicClient = async () => (await registerApp(owner, { public: true, ...(kind.grantTypes ? { grant_types: kind.grantTypes } : {}) })).client_id;
  const send = (clientId: string, address: string, extra: [string, string][] = []) =>
    postForm(app, kind.path, [...kind.form(), ["client_id", clientId], ...extra], { headers: { "x-forwarded-for": address } });
  const count = async (where = sql``) =>
    ((await app.ctx.db.all<{ n: number }>(sql`SELECT count(*) AS n FROM ${sql.identifier(kind.table)} ${where}`))[0] as { n: number }).n;
  const rowsOf = (clientId: string) => count(sql`WHERE client_id = ${clientId}`);
  /** `n` requests from distinct addresses, `at once` at a time. */
  const spread = async (clientId: string, n: number, prefix: string) => {
    const statuses: number[] = [];
    for (let i = 0; i < n; i += 30) {
      const batch = Array.from({ length: Math.min(30, n - i) }, (_, j) => send(clientId, `${prefix}.${(i + j) >> 8}.${(i + j) & 255}`));
      statuses.push(...(await Promise.all(batch)).map((a) => a.status));
    }
    return statuses;
  };

  it("stops a burst from one address at the address's limit: 429 too_many_requests with Retry-After, no row more, no 5xx", async () => {
    clock.advance(61_000);
    const [flooded, other] = [await publicClient(), await publicClient()];
    const answers = await Promise.all(Array.from({ length: kind.perAddress + 40 }, () => send(flooded, "10.1.0.1")));
    expect(answers.filter((a) => a.status >= 500)).toEqual([]);
    expect(answers.filter((a) => a.status === kind.ok)).toHaveLength(kind.perAddress);
    const refused = answers.filter((a) => a.status === 429);
    expect(refused).toHaveLength(40);
    expect(refused[0]?.data).toEqual({ error: "too_many_requests", error_description: expect.stringContaining("try again later") });
    expect(Number(refused[0]?.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(await rowsOf(flooded)).toBe(kind.perAddress);
    // The address is spent for any public client; another address is not.
    expect((await send(other, "10.1.0.1")).status).toBe(429);
    expect((await send(other, "10.1.0.2")).status).toBe(kind.ok);
    expect(await rowsOf(other)).toBe(1);
  });

  it("stops one client's requests from many addresses at the client's limit, and another client is unaffected", async () => {
    clock.advance(61_000);
    const [flooded, other] = [await publicClient(), await publicClient()];
    expect((await spread(flooded, kind.perClient, "10.2")).every((s) => s === kind.ok)).toBe(true);
    const refused = await send(flooded, "10.3.0.1");
    expect(refused.status).toBe(429);
    expect(refused.data.error).toBe("too_many_requests");
    expect(await rowsOf(flooded)).toBe(kind.perClient);
    expect((await send(other, "10.3.0.1")).status).toBe(kind.ok);
  });

  it("counts a confidential client per client, not per address: its requests come from its own servers", async () => {
    clock.advance(61_000);
    const flooded = await publicClient();
    const confidential = await registerApp(owner, kind.grantTypes ? { grant_types: kind.grantTypes } : {});
    await Promise.all(Array.from({ length: kind.perAddress }, () => send(flooded, "10.4.0.1")));
    expect((await send(flooded, "10.4.0.1")).status).toBe(429);
    const res = await postForm(app, kind.path, kind.form(), {
      basic: [confidential.client_id, confidential.client_secret as string],
      headers: { "x-forwarded-for": "10.4.0.1" },
    });
    expect(res.status).toBe(kind.ok);
  });

  it("keeps at most a ceiling of one client's rows, and sweeps the expired ones rather than waiting for the purge", async () => {
    clock.advance(61_000);
    const [full, other] = [await publicClient(), await publicClient()];
    await kind.fill(full, kind.perClientCap, clock.now() + kind.ttlMs);
    const refused = await send(full, "10.5.0.1");
    expect(refused.status).toBe(429);
    expect(refused.data.error).toBe("too_many_requests");
    expect(await rowsOf(full)).toBe(kind.perClientCap);
    expect((await send(other, "10.5.0.2")).status).toBe(kind.ok);
    clock.advance(kind.ttlMs);
    expect((await send(full, "10.5.0.3")).status).toBe(kind.ok);
    expect(await rowsOf(full)).toBe(1);
  });

  it("keeps at most MAX_PENDING_STARTS rows in all, however many clients share them", async () => {
    clock.advance(61_000);
    const each = Math.ceil(MAX_PENDING_STARTS / 6);
    expect(each).toBeLessThan(kind.perClientCap);
    for (let i = 0; i < 6; i++) await kind.fill(await publicClient(), each, clock.now() + kind.ttlMs);
    const stored = await count();
    expect(stored).toBeGreaterThanOrEqual(MAX_PENDING_STARTS);
    const fresh = await publicClient();
    const refused = await send(fresh, "10.6.0.1");
    expect(refused.status).toBe(429);
    expect(await count()).toBe(stored);
    clock.advance(kind.ttlMs);
    expect((await send(fresh, "10.6.0.2")).status).toBe(kind.ok);
    // Every older row had expired: the sweep left only the new one.
    expect(await count()).toBe(1);
  });

  it("bounds what a request may make us keep, and the request itself, in RFC 6749 JSON, storing nothing", async () => {
    clock.advance(61_000);
    const client = await publicClient();
    const bloated = await send(client, "10.7.0.1", kind.bloat());
    expect(bloated.status).toBe(400);
    expect(bloated.data).toEqual({ error: "invalid_request", error_description: expect.stringContaining(`at most ${MAX_KEPT_BYTES}`) });
    const huge = await send(client, "10.7.0.1", [["padding", "p".repeat(MAX_START_REQUEST_BYTES)]]);
    expect(huge.status).toBe(413);
    expect(huge.data).toEqual({ error: "invalid_request", error_description: expect.stringContaining(`at most ${MAX_START_REQUEST_BYTES}`) });
    expect(await rowsOf(client)).toBe(0);
  });
});
