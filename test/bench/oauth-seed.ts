/**
 * What bench:oauth sends, written straight into the server's database beforehand: one-use codes
 * and refresh tokens (each request redeems a fresh one) and the access token that introspection
 * and userinfo present. The same SQL on both stores: the SQLite file through bun:sqlite, a
 * PostgreSQL database through Cairn's own client (src/db/pg/client.ts), while the server idles.
 */
import { Database } from "bun:sqlite";
import { createHash, randomBytes } from "node:crypto";
import { openPostgres } from "../../src/db/pg/client.ts";
import { newToken, type TokenIds } from "../../src/oauth/tokens/token-key.ts";

type Value = string | number | null;

/** A database the seeding writes to: `ids` reserves `n` row ids of a numbered table, since token values carry them. */
export type SeedDb = {
  run(text: string, params: Value[]): Promise<unknown>;
  ids(table: "refresh_tokens" | "access_tokens", n: number): Promise<number[]>;
  close(): Promise<void>;
};

export function sqliteSeedDb(file: string): SeedDb {
  const db = new Database(file);
  db.run("PRAGMA busy_timeout = 5000");
  db.run("PRAGMA synchronous = OFF"); // this connection's commits only: a bench's seed need not survive a crash
  const next = new Map<string, number>();
  return {
    async run(text, params) {
      db.query(text).run(...params);
    },
    async ids(table, n) {
      const from = next.get(table) ?? (db.query(`SELECT coalesce(max(id), 0) AS m FROM ${table}`).get() as { m: number }).m;
      next.set(table, from + n);
      return Array.from({ length: n }, (_, i) => from + 1 + i);
    },
    async close() {
      // Left in the WAL, the seeding would make every read search hundreds of megabytes of WAL
      // index; a server running for real checkpoints every 1,000 pages.
      db.run("PRAGMA wal_checkpoint(TRUNCATE)");
      db.close();
    },
  };
}

export function postgresSeedDb(url: string): SeedDb {
  const pg = openPostgres(url, { max: 1, queryTimeoutMs: 0, applicationName: "bench-seed" });
  return {
    run: (text, params) => pg.query(text, params),
    async ids(table, n) {
      // From the table's own sequence, so the server's later inserts never take them.
      const { rows } = await pg.query(`SELECT nextval(pg_get_serial_sequence('${table}', 'id')) AS id FROM generate_series(1, ${n})`);
      return rows.map((r) => Number((r as { id: number }).id));
    },
    close: () => pg.close(),
  };
}

export type Seeded = {
  /** Form bodies of the token endpoint, one per line-to-be: each code or refresh token once. */
  codes: string[];
  refresh: string[];
  /** Refresh tokens of grants bound to `dpopJkt`. */
  dpopRefresh: string[];
  /** An access token (openid profile email, an hour) for introspection and userinfo. */
  access: string;
};

export type SeedFor = { clientId: string; userId: string; redirectUri: string; ids: TokenIds; count: number; dpopJkt: string };

const CHUNK = 500; // rows a statement: within both stores' limits on bound parameters
const hash = (s: string) => createHash("sha256").update(s).digest("hex");

/** Inserts rows of equal width, CHUNK a statement. */
async function insert(db: SeedDb, into: string, rows: Value[][]): Promise<void> {
  for (let at = 0; at < rows.length; at += CHUNK) {
    const chunk = rows.slice(at, at + CHUNK);
    const tuple = `(${chunk[0]?.map(() => "?").join(", ")})`;
    await db.run(`INSERT INTO ${into} VALUES ${chunk.map(() => tuple).join(", ")}`, chunk.flat());
  }
}

/** `count` codes, `count` refresh tokens and `count` DPoP-bound ones, each refresh token on a grant of its own. */
export async function seedOAuth(db: SeedDb, { clientId, userId, redirectUri, ids, count, dpopJkt }: SeedFor): Promise<Seeded> {
  const now = Date.now();
  const authTime = Math.floor(now / 1000);
  const seeded: Seeded = { codes: [], refresh: [], dpopRefresh: [], access: "" };
  const grantColumns = "oauth_grants (id, client_id, user_id, scopes, auth_time, amr, acr, created_at, refresh_expires_at, dpop_jkt)";
  const refreshColumns = "refresh_tokens (id, token_hash, grant_id, client_id, created_at, expires_at)";
  const grant = (id: string, scopes: string, refreshEnds: number | null, jkt: string | null): Value[] => [
    id,
    clientId,
    userId,
    scopes,
    authTime,
    '["pwd"]',
    "pwd",
    now,
    refreshEnds,
    jkt,
  ];
  for (let start = 0; start < count; start += CHUNK) {
    const n = Math.min(CHUNK, count - start);
    const rowIds = await db.ids("refresh_tokens", 2 * n);
    const codes: Value[][] = [];
    const grants: Value[][] = [];
    const tokens: Value[][] = [];
    const refreshToken = (grantId: string, rowId: number) =>
      newToken(ids, "refresh", (h) => {
        tokens.push([rowId, h, grantId, clientId, now, now + 86_400_000]);
        return rowId;
      });
    for (let k = 0; k < n; k++) {
      const i = start + k;
      const code = randomBytes(32).toString("base64url");
      codes.push([hash(code), clientId, userId, redirectUri, '["openid","profile"]', authTime, '["pwd"]', "pwd", now + 3_600_000]);
      seeded.codes.push(`grant_type=authorization_code&code=${code}&redirect_uri=${encodeURIComponent(redirectUri)}`);
      grants.push(grant(`g${i}`, '["profile","offline_access"]', now + 86_400_000, null));
      seeded.refresh.push(`grant_type=refresh_token&refresh_token=${refreshToken(`g${i}`, rowIds[2 * k] as number)}`);
      grants.push(grant(`d${i}`, '["profile","offline_access"]', now + 86_400_000, dpopJkt));
      seeded.dpopRefresh.push(`grant_type=refresh_token&refresh_token=${refreshToken(`d${i}`, rowIds[2 * k + 1] as number)}`);
    }
    await insert(db, "authorization_codes (code_hash, client_id, user_id, redirect_uri, scopes, auth_time, amr, acr, expires_at)", codes);
    await insert(db, grantColumns, grants);
    await insert(db, refreshColumns, tokens);
  }
  await insert(db, grantColumns, [grant("g-access", '["openid","profile","email"]', null, null)]);
  const [accessId] = (await db.ids("access_tokens", 1)) as [number];
  const access: Value[][] = [];
  seeded.access = newToken(ids, "access", (h) => {
    access.push([accessId, h, "g-access", clientId, userId, '["openid","profile","email"]', now, now + 3_600_000]);
    return accessId;
  });
  await insert(db, "access_tokens (id, token_hash, grant_id, client_id, user_id, scopes, created_at, expires_at)", access);
  return seeded;
}
