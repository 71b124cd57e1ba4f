import { Database } from "bun:sqlite";
import { describe, expect, it } from "bun:test";
import { closeSync, existsSync, openSync, readdirSync, readFileSync, realpathSync, statSync, writeFileSync, writeSync } from "node:fs";
import { join } from "node:path";
import pkg from "../../package.json" with { type: "json" };
import { cli, lines, MAIN, startServer, until } from "../helpers/cli.ts";
import { spawnOwned } from "../helpers/processes.ts";
import { tempDir } from "../helpers/temp.ts";
import { waitFor } from "../helpers/wait.ts";

/** A data folder whose cairn.db holds `rows` blobs of 4 kB (25,000 rows: about 100 MB). */
function dataWithFiller(rows: number): string {
  const data = tempDir();
  const db = new Database(join(data, "cairn.db"));
  db.run("PRAGMA journal_mode = WAL");
  db.run("CREATE TABLE filler (b BLOB)");
  db.run("WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < ?) INSERT INTO filler SELECT randomblob(4000) FROM c", [rows]);
  db.close();
  return data;
}

const integrity = (file: string) => {
  const db = new Database(file, { readonly: true });
  const result = (db.query("PRAGMA integrity_check").get() as { integrity_check: string }).integrity_check;
  db.close();
  return result;
};

describe("command line", () => {
  it("--help prints the commands", () => {
    const out = cli(["--help"]);
    expect(out.code).toBe(0);
    for (const word of ["serve", "migrate", "backup FILE"]) expect(out.stdout).toContain(word);
  });

  it("--version prints the package version", () => {
    expect(cli(["--version"])).toMatchObject({ code: 0, stdout: `${pkg.version}\n` });
  });

  it("refuses an unknown command with exit code 2", () => {
    const out = cli(["frobnicate"]);
    expect(out.code).toBe(2);
    expect(out.stderr).toContain('unknown command "frobnicate"');
  });

  it("issue 42: `cairn admin` and `cairn keys` without a command print their commands (stderr, exit 2; with --help, stdout and 0)", () => {
    for (const [group, command] of [
      ["admin", "reset-password USER"],
      ["keys", "rotate"],
    ] as const) {
      const bare = cli([group], { CAIRN_DATA: join(tempDir(), "none") });
      expect(bare).toMatchObject({ code: 2, stdout: "" });
      expect(bare.stderr).toStartWith(`cairn: ${group} needs a command\n\nUsage: cairn ${group} COMMAND\n`);
      expect(bare.stderr).toContain(`  ${command}`);
      expect(bare.stderr).not.toContain("unknown");
      const help = cli([group, "--help"]);
      expect(help).toMatchObject({ code: 0, stderr: "" });
      expect(help.stdout).toStartWith(`Usage: cairn ${group} COMMAND\n`);
      expect(help.stdout).toContain(`  ${command}`);
    }
  });

  it("issue 42: an unknown option or a word too many is an error, with the usage on stderr, and does nothing", () => {
    const cwd = realpathSync(tempDir());
    const data = join(cwd, "data");
    for (const args of [["--bogus"], ["serve", "--port=80"], ["migrate", "-x"], ["admin", "reset-password", "--bogus"], ["keys", "rotate", "--now"]]) {
      const out = cli(args, { CAIRN_DATA: data }, cwd);
      const option = args.at(-1) as string;
      expect({ args, code: out.code, stdout: out.stdout }).toEqual({ args, code: 2, stdout: "" });
      expect(out.stderr).toStartWith(`cairn: unknown option "${option}"\n\n`);
      expect(out.stderr).toContain("Usage: cairn");
    }
    for (const args of [
      ["migrate", "now"],
      ["backup", "a.db", "b.db"],
      ["admin", "reset-password", "ann", "bob"],
    ]) {
      const out = cli(args, { CAIRN_DATA: data }, cwd);
      expect({ args, code: out.code }).toEqual({ args, code: 2 });
      expect(out.stderr).toStartWith(`cairn: unexpected argument "${args.at(-1)}"\n\n`);
      expect(out.stderr).toContain("Usage: cairn");
    }
    // Nothing was made: not the data folder, not a backup.
    expect(readdirSync(cwd)).toEqual([]);
    // After `--`, a word that starts with a dash is a value (a user so named), not an option.
    const dashed = cli(["admin", "reset-password", "--", "--bogus"], { CAIRN_DATA: data }, cwd);
    expect(dashed).toMatchObject({ code: 1, stderr: `cairn: no database at ${join(data, "cairn.db")} (set CAIRN_DATA)\n` });
  });

  it("stops on a bad environment value with one line naming the variable", () => {
    const out = cli(["serve"], { PORT: "eighty", CAIRN_DATA: tempDir() });
    expect(out.code).toBe(1);
    expect(out.stderr).toBe('cairn: PORT: must be a whole number, got "eighty"\n');
  });

  it("migrate creates the database and is idempotent", () => {
    const data = tempDir();
    const first = cli(["migrate"], { CAIRN_DATA: data });
    expect(first.code).toBe(0);
    expect(first.stdout).toContain("applied 0000_");
    expect(cli(["migrate"], { CAIRN_DATA: data })).toMatchObject({ code: 0, stdout: "database is up to date\n" });
    expect(integrity(join(data, "cairn.db"))).toBe("ok");
  });
});

describe("only serve and migrate create a database", () => {
  const COMMANDS = [
    ["keys", "rotate"],
    ["admin", "reset-password", "someone"],
    ["backup", "out.db"],
  ];
  const refusal = (data: string) => `cairn: no database at ${join(data, "cairn.db")} (set CAIRN_DATA)\n`;

  it.each(COMMANDS)("%s %s stops when CAIRN_DATA names a missing folder, and creates nothing", (...args) => {
    const cwd = realpathSync(tempDir());
    const data = join(tempDir(), "missing");
    expect(cli(args, { CAIRN_DATA: data }, cwd)).toMatchObject({ code: 1, stdout: "", stderr: refusal(data) });
    expect(existsSync(data)).toBe(false);
    expect(readdirSync(cwd)).toEqual([]);
  });

  it.each(COMMANDS)("%s %s stops without CAIRN_DATA in a folder with no ./data, and creates nothing", (...args) => {
    const cwd = realpathSync(tempDir());
    expect(cli(args, { CAIRN_DATA: "" }, cwd)).toMatchObject({ code: 1, stdout: "", stderr: refusal(join(cwd, "data")) });
    expect(readdirSync(cwd)).toEqual([]);
  });

  it.each(COMMANDS)("%s %s stops on a data folder without cairn.db, and writes no secret.key into it", (...args) => {
    const cwd = realpathSync(tempDir());
    const data = realpathSync(tempDir());
    expect(cli(args, { CAIRN_DATA: data }, cwd)).toMatchObject({ code: 1, stdout: "", stderr: refusal(data) });
    expect(readdirSync(data)).toEqual([]);
    expect(readdirSync(cwd)).toEqual([]);
  });
});

describe("backup FILE", () => {
  it("needs a file name and refuses to overwrite an existing file", () => {
    const data = tempDir();
    cli(["migrate"], { CAIRN_DATA: data });
    expect(cli(["backup"], { CAIRN_DATA: data }).code).toBe(2);
    const target = join(tempDir(), "exists.db");
    writeFileSync(target, "precious");
    const out = cli(["backup", target], { CAIRN_DATA: data });
    expect(out.code).toBe(1);
    expect(out.stderr).toContain("already exists");
    expect(readFileSync(target, "utf8")).toBe("precious");
  });

  it("says so when there is no database", () => {
    const out = cli(["backup", join(tempDir(), "b.db")], { CAIRN_DATA: join(tempDir(), "empty") });
    expect(out.code).toBe(1);
    expect(out.stderr).toContain("no database at");
  });

  it("taken while a write loop runs, is intact and holds every row committed before it began", async () => {
    const data = tempDir();
    const file = join(data, "cairn.db");
    const writer = spawnOwned([process.execPath, join(import.meta.dir, "../helpers/write-loop.ts"), file], { stdout: "pipe" });
    const reader = lines(writer.stdout);
    const acked = Number(await until(reader, (line) => Number(line) >= 300));
    const target = join(tempDir(), "backup.db");
    const out = cli(["backup", target], { CAIRN_DATA: data });
    // The writer kept going during the backup.
    const ackedAfter = Number(await until(reader, (line) => Number(line) >= acked + 100));
    writer.kill("SIGKILL");
    await writer.exited;
    expect(out.code).toBe(0);
    expect(out.stdout).toContain(`backup written to ${target}`);
    expect(integrity(target)).toBe("ok");
    const copy = new Database(target, { readonly: true });
    const keys = new Set((copy.query("SELECT key FROM settings").all() as { key: string }[]).map((r) => r.key));
    copy.close();
    for (let i = 0; i <= acked; i++) expect(keys.has(`row-${i}`)).toBe(true);
    expect(ackedAfter).toBeGreaterThan(acked);
  });

  it("a backup that fails half-way leaves nothing in the target's folder", () => {
    const data = dataWithFiller(200);
    // Corrupt pages in the middle: VACUUM INTO starts writing, then fails reading them.
    const fd = openSync(join(data, "cairn.db"), "r+");
    writeSync(fd, Buffer.alloc(3 * 4096, 0xff), 0, 3 * 4096, 50 * 4096);
    closeSync(fd);
    const folder = tempDir();
    const target = join(folder, "backup.db");
    const out = cli(["backup", target], { CAIRN_DATA: data });
    expect(out.code).toBe(1);
    expect(out.stderr).toContain("malformed");
    expect(readdirSync(folder)).toEqual([]);
  });

  it("a partial file left by a killed run does not block the retry, and is left alone", () => {
    const data = tempDir();
    cli(["migrate"], { CAIRN_DATA: data });
    const folder = tempDir();
    const target = join(folder, "backup.db");
    writeFileSync(`${target}.partial-4242-0badc0de`, "");
    const out = cli(["backup", target], { CAIRN_DATA: data });
    expect(out.code).toBe(0);
    expect(integrity(target)).toBe("ok");
    expect(statSync(target).mode & 0o777).toBe(0o600);
    expect(readdirSync(folder).sort()).toEqual(["backup.db", "backup.db.partial-4242-0badc0de"]);
  });

  it("killed while it copies, leaves no target (or a complete one), and the retry succeeds", async () => {
    const data = dataWithFiller(25_000);
    const folder = tempDir();
    const target = join(folder, "backup.db");
    const proc = spawnOwned([process.execPath, MAIN, "backup", target], { env: { ...process.env, CAIRN_DATA: data }, stdout: "ignore", stderr: "ignore" });
    // Kill it once a file in the folder passes 1 MB: VACUUM INTO is writing the copy.
    const writing = () => readdirSync(folder).some((name) => (statSync(join(folder, name), { throwIfNoEntry: false })?.size ?? 0) > 1_000_000);
    await waitFor(() => writing() || proc.exitCode !== null, { what: "the backup to start writing its copy", timeoutMs: 10_000, intervalMs: 1 });
    proc.kill("SIGKILL");
    await proc.exited;
    // No target, so the retry succeeds; or, had it won the race and finished, a whole one.
    if (!existsSync(target)) expect(cli(["backup", target], { CAIRN_DATA: data }).code).toBe(0);
    expect(integrity(target)).toBe("ok");
    // A copy cut short can still open (as an empty database): it must hold every row.
    const copy = new Database(target, { readonly: true });
    expect(copy.query("SELECT count(*) AS n FROM filler").get()).toEqual({ n: 25_000 });
    copy.close();
  }, 30_000);
});

describe("serve", () => {
  it("stops with one line when its port is taken, and the server already there keeps answering", async () => {
    const first = await startServer({ CAIRN_DATA: tempDir() });
    try {
      const port = new URL(first.url).port;
      const second = cli(["serve"], { PORT: port, CAIRN_DATA: tempDir(), CAIRN_ISSUER: first.url });
      expect(second.code).toBe(1);
      expect(second.stderr).toBe(`cairn: PORT ${port} is already in use: stop the program that holds it, or set PORT to a free port\n`);
      expect((await fetch(`${first.url}/healthz`)).status).toBe(200);
    } finally {
      first.proc.kill("SIGTERM");
      await first.exited;
    }
  });

  it("on a fresh instance, prints where to finish setup right after it listens", async () => {
    const server = await startServer({ CAIRN_DATA: tempDir() });
    server.proc.kill("SIGTERM");
    expect(await server.exited).toBe(0);
    expect(server.stderr[0]).toBe(`Cairn is running. Finish setup in your browser: ${server.url}/setup`);
    // The JSON log on stdout is unchanged: its listening line comes first.
    expect(JSON.parse(server.log[0] as string)).toMatchObject({ msg: "listening", issuer: server.url });
  });

  it("once configured, prints its address instead of the setup page", async () => {
    const data = tempDir();
    cli(["migrate"], { CAIRN_DATA: data });
    const db = new Database(join(data, "cairn.db"));
    db.run("INSERT INTO settings (key, value, updated_at) VALUES ('configured', 'true', 1)");
    db.close();
    const server = await startServer({ CAIRN_DATA: data });
    server.proc.kill("SIGTERM");
    expect(await server.exited).toBe(0);
    expect(server.stderr[0]).toBe(`Cairn is running at ${server.url}`);
  });

  it("on SIGTERM finishes requests in flight, closes the database cleanly and exits 0", async () => {
    const data = tempDir();
    const server = await startServer({ CAIRN_DATA: data });
    const writes = Array.from({ length: 100 }, (_, i) =>
      fetch(`${server.url}/api/init/config`, {
        method: "PUT",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ idp_client_id: `c${i}` }),
      }).then(
        async (res) => ({ status: res.status, body: await res.json() }),
        () => null, // refused once the server stopped listening: acceptable, never a half answer
      ),
    );
    await Promise.race(writes); // the server is answering; most writes are still in flight
    server.proc.kill("SIGTERM");
    const answers = await Promise.all(writes);
    expect(await server.exited).toBe(0);
    const answered = answers.filter((a) => a !== null);
    // Some were answered after the signal arrived; those in flight were finished, not dropped.
    expect(answered.length).toBeGreaterThan(1);
    for (const a of answered) expect(a).toMatchObject({ status: 200, body: { config: { use_pkce: true } } });
    expect(server.log.some((l) => l.includes('"msg":"stopped"'))).toBe(true);
    // A clean close checkpoints the WAL into the main file and removes it.
    expect(existsSync(join(data, "cairn.db-wal"))).toBe(false);
    expect(integrity(join(data, "cairn.db"))).toBe("ok");
  });

  it("killed with SIGKILL in the middle of a write loop, loses no acknowledged write", async () => {
    const data = tempDir();
    const server = await startServer({ CAIRN_DATA: data });
    let acked = -1;
    let stop = false;
    const loop = (async () => {
      for (let i = 0; !stop; i++) {
        try {
          const res = await fetch(`${server.url}/api/init/config`, {
            method: "PUT",
            headers: { "content-type": "application/json" },
            body: JSON.stringify({ idp_client_id: `c${i}` }),
          });
          if (res.status === 200 && (await res.json()).config.idp_client_id === `c${i}`) acked = i;
        } catch {
          return;
        }
      }
    })();
    await waitFor(() => acked >= 200, { what: "200 acknowledged writes", timeoutMs: 20_000 });
    server.proc.kill("SIGKILL");
    await server.exited;
    stop = true;
    await loop;
    const file = join(data, "cairn.db");
    expect(integrity(file)).toBe("ok");
    const db = new Database(file);
    const row = db.query("SELECT value FROM settings WHERE key = 'app_config'").get() as { value: string };
    db.close();
    const stored = Number(JSON.parse(row.value).idp_client_id.slice(1));
    // The write in flight at the kill may or may not have landed; every acknowledged one has.
    expect(stored === acked || stored === acked + 1).toBe(true);
  });
});

describe("admin reset-password USER", () => {
  it("gives a locked-out user a new password, removes their second factors and ends their sessions", async () => {
    const data = tempDir();
    const server = await startServer({ CAIRN_DATA: data });
    const register = await fetch(`${server.url}/api/auth/register`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ username: "root", email: "root@example.com", password: "forgotten password" }),
    });
    const token = (await register.json()).session_token;
    server.proc.kill("SIGTERM");
    await server.exited;
    const db = new Database(join(data, "cairn.db"));
    const userId = (db.query("SELECT id FROM users").get() as { id: string }).id;
    db.run("INSERT INTO totp_credentials (user_id, secret_sealed, confirmed_at, created_at) VALUES (?, 'x', 1, 1)", [userId]);
    db.close();

    expect(cli(["admin", "reset-password", "nobody"], { CAIRN_DATA: data }).code).toBe(1);
    expect(cli(["admin", "reset-password"], { CAIRN_DATA: data }).code).toBe(2);
    const out = cli(["admin", "reset-password", "ROOT"], { CAIRN_DATA: data });
    expect(out.code).toBe(0);
    const password = /New password for root: (\S+)/.exec(out.stdout)?.[1] as string;
    expect(password.length).toBeGreaterThanOrEqual(16);

    const again = await startServer({ CAIRN_DATA: data });
    try {
      const old = await fetch(`${again.url}/api/auth/session`, { headers: { authorization: `Bearer ${token}` } });
      expect(old.status).toBe(401);
      const login = await fetch(`${again.url}/api/auth/login`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ login: "root", password }),
      });
      const body = await login.json();
      expect(body.user.username).toBe("root"); // one step: the factor is gone
    } finally {
      again.proc.kill("SIGTERM");
      await again.exited;
    }
  });
});
