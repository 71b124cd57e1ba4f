import { describe, expect, it } from "bun:test";
import { chmodSync, copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, realpathSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { cli, type RunningServer, startServer } from "../helpers/cli.ts";
import { PASSWORD, totpCode } from "../helpers/identity.ts";
import { tempDir } from "../helpers/temp.ts";

// Issue 39 ("Data safety and first start"), items 15 to 17: through the real command line.

const RESTORE_FIX =
  "put back the secret.key saved with this database (cairn backup writes it beside the copy as FILE.key), or set CAIRN_SECRET to the secret it ran with";

async function call(server: RunningServer, method: string, path: string, body?: unknown, token?: string) {
  const res = await fetch(`${server.url}${path}`, {
    method,
    headers: { "content-type": "application/json", ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, data: await res.json() };
}

async function stop(server: RunningServer) {
  server.proc.kill("SIGTERM");
  expect(await server.exited).toBe(0);
}

/** Password, then the TOTP code: the two steps of a sign-in with a second factor. */
async function signInWithTotp(server: RunningServer, secret: string, stepsAhead: number) {
  const first = await call(server, "POST", "/api/auth/login", { login: "root", password: PASSWORD });
  expect(first).toMatchObject({ status: 200, data: { mfa_required: true } });
  return call(server, "POST", "/api/auth/login/mfa", { mfa_token: first.data.mfa_token, code: await totpCode(secret, Date.now(), stepsAhead) });
}

/** An instance with an admin who has a TOTP authenticator, backed up while it runs: FILE and FILE.key. */
async function backedUpInstance() {
  const data = tempDir();
  const server = await startServer({ CAIRN_DATA: data });
  try {
    const registered = await call(server, "POST", "/api/auth/register", { username: "root", email: "root@example.com", password: PASSWORD });
    expect(registered.status).toBe(201);
    const token = registered.data.session_token;
    const totpSecret: string = (await call(server, "POST", "/api/oauth/me/totp", undefined, token)).data.secret;
    const confirmed = await call(server, "POST", "/api/oauth/me/totp/confirm", { code: await totpCode(totpSecret, Date.now()) }, token);
    expect(confirmed.status).toBe(200);
    // Taken while the server runs, as the README shows.
    const backup = join(tempDir(), "cairn-backup.db");
    const out = cli(["backup", backup], { CAIRN_DATA: data });
    return { data, backup, out, totpSecret };
  } finally {
    await stop(server);
  }
}

/** The README's restore: an empty folder, `data/` owner-only, the copy as data/cairn.db and its key as data/secret.key. */
function restore(backup: string, withKey = true): string {
  const folder = realpathSync(tempDir());
  const data = join(folder, "data");
  mkdirSync(data, { mode: 0o700 });
  copyFileSync(backup, join(data, "cairn.db"));
  chmodSync(join(data, "cairn.db"), 0o600);
  if (withKey) {
    copyFileSync(`${backup}.key`, join(data, "secret.key"));
    chmodSync(join(data, "secret.key"), 0o600);
  }
  return folder;
}

describe("backup and restore (item 15)", () => {
  it("cairn backup FILE writes the database and, beside it, the key that opens it; restored into an empty folder it signs in with password and TOTP", async () => {
    const { data, backup, out, totpSecret } = await backedUpInstance();
    expect(out).toMatchObject({ code: 0, stderr: "" });
    expect(out.stdout).toBe(`backup written to ${backup} (${statSync(backup).size} bytes), its key to ${backup}.key: keep both, a restore needs both\n`);
    expect(readFileSync(`${backup}.key`, "utf8")).toBe(readFileSync(join(data, "secret.key"), "utf8"));
    expect(statSync(`${backup}.key`).mode & 0o777).toBe(0o600);

    // No CAIRN_DATA: the restored ./data of the folder it starts in, as for the executable or `npm start`.
    const folder = restore(backup);
    const server = await startServer({ CAIRN_DATA: "" }, undefined, folder);
    try {
      expect((await fetch(`${server.url}/readyz`)).status).toBe(200);
      const signedIn = await signInWithTotp(server, totpSecret, 1);
      expect(signedIn).toMatchObject({ status: 200, data: { user: { username: "root" } } });
      const session = await call(server, "GET", "/api/auth/session", undefined, signedIn.data.session_token);
      expect(session).toMatchObject({ status: 200, data: { session: { acr: "mfa" } } });
    } finally {
      await stop(server);
    }
    expect(readdirSync(join(folder, "data")).sort()).toEqual(["cairn.db", "secret.key"]);
  }, 30_000);

  it("restored without its key, refuses to start with one line naming the fix, and makes no key", async () => {
    const { backup } = await backedUpInstance();
    const folder = restore(backup, false);
    const file = join(folder, "data", "secret.key");
    const out = cli(["serve"], { CAIRN_DATA: "", PORT: "0" }, folder);
    expect(out).toMatchObject({ code: 1, stdout: "" });
    expect(out.stderr).toBe(`cairn: ${file} is missing, but this database holds values sealed with it: ${RESTORE_FIX}\n`);
    expect(existsSync(file)).toBe(false);
  }, 30_000);

  it("restored with another instance's key, refuses to start with one line naming the fix", async () => {
    const { backup } = await backedUpInstance();
    const folder = restore(backup, false);
    const file = join(folder, "data", "secret.key");
    writeFileSync(file, `${"x".repeat(43)}\n`, { mode: 0o600 });
    const out = cli(["serve"], { CAIRN_DATA: "", PORT: "0" }, folder);
    expect(out).toMatchObject({ code: 1, stdout: "" });
    expect(out.stderr).toBe(`cairn: ${file} does not open this database's sealed values (it is another instance's key): ${RESTORE_FIX}\n`);
    // Nor does a CAIRN_SECRET that is not the one it was sealed with get further.
    const env = cli(["serve"], { CAIRN_DATA: "", PORT: "0", CAIRN_SECRET: "s".repeat(40) }, folder);
    expect(env.stderr).toBe(
      `cairn: CAIRN_SECRET does not open this database's sealed values: set it to the secret this database was sealed with, or unset it to use ${file}\n`,
    );
    expect(env.code).toBe(1);
  }, 30_000);

  it("with CAIRN_SECRET, the backup writes no key file and says the secret is needed", () => {
    const data = tempDir();
    const secret = { CAIRN_SECRET: "q".repeat(40) };
    expect(cli(["keys", "rotate"], { CAIRN_DATA: data, ...secret }).code).toBe(1); // no database yet
    expect(cli(["migrate"], { CAIRN_DATA: data, ...secret }).code).toBe(0);
    expect(cli(["keys", "rotate"], { CAIRN_DATA: data, ...secret }).code).toBe(0); // seals signing keys with CAIRN_SECRET
    const folder = tempDir();
    const backup = join(folder, "b.db");
    const out = cli(["backup", backup], { CAIRN_DATA: data, ...secret });
    expect(out.stdout).toBe(`backup written to ${backup} (${statSync(backup).size} bytes); its key is your CAIRN_SECRET: a restore needs it too\n`);
    expect(readdirSync(folder)).toEqual(["b.db"]);
    // A CAIRN_SECRET that does not open the copy: no backup that could not be restored with it.
    const wrong = cli(["backup", join(folder, "c.db")], { CAIRN_DATA: data, CAIRN_SECRET: "w".repeat(40) });
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toBe("cairn: CAIRN_SECRET does not open this database's sealed values: set it to the secret this database was sealed with\n");
    expect(readdirSync(folder)).toEqual(["b.db"]);
  });

  it("refuses to write over an existing FILE.key, and writes nothing then", () => {
    const data = tempDir();
    expect(cli(["migrate"], { CAIRN_DATA: data }).code).toBe(0);
    expect(cli(["keys", "rotate"], { CAIRN_DATA: data }).code).toBe(0);
    const folder = tempDir();
    const backup = join(folder, "b.db");
    writeFileSync(`${backup}.key`, "precious");
    const out = cli(["backup", backup], { CAIRN_DATA: data });
    expect(out).toMatchObject({ code: 1, stderr: `cairn: ${backup}.key already exists; choose a new file name\n` });
    expect(readdirSync(folder)).toEqual(["b.db.key"]);
    expect(readFileSync(`${backup}.key`, "utf8")).toBe("precious");
  });
});

describe("an empty or short secret.key (item 16)", () => {
  it("of an instance in use, refuses to start with one line naming the file and the fix", async () => {
    const { data } = await backedUpInstance();
    const file = join(data, "secret.key");
    for (const contents of ["", "short\n"]) {
      writeFileSync(file, contents);
      const out = cli(["serve"], { CAIRN_DATA: data, PORT: "0" });
      expect(out).toMatchObject({ code: 1, stdout: "" });
      expect(out.stderr).toBe(`cairn: ${file} is empty or cut short (${contents.trim().length} characters; a key has at least 32): ${RESTORE_FIX}\n`);
    }
  }, 30_000);

  it("left empty by a power cut on the first start, refuses to start and says a new one may be made", () => {
    const data = tempDir();
    const file = join(data, "secret.key");
    writeFileSync(file, "");
    const out = cli(["serve"], { CAIRN_DATA: data, PORT: "0" });
    expect(out).toMatchObject({ code: 1, stdout: "" });
    expect(out.stderr).toBe(
      `cairn: ${file} is empty or cut short (0 characters; a key has at least 32): this database holds nothing sealed with it yet: delete the file and start again, and Cairn makes a new one\n`,
    );
  });
});

describe("a start that cannot happen creates nothing (item 17)", () => {
  it.each([
    ["names a file", (file: string) => file],
    ["runs through a file", (file: string) => join(file, "data")],
  ])("CAIRN_DATA that %s stops with one line naming it, and no stack trace", (_, path) => {
    const folder = realpathSync(tempDir());
    const file = join(folder, "not-a-folder");
    writeFileSync(file, "x");
    const data = path(file);
    for (const command of ["serve", "migrate"]) {
      const out = cli([command], { CAIRN_DATA: data, PORT: "0" }, folder);
      expect(out).toMatchObject({ code: 1, stdout: "" });
      expect(out.stderr).toBe(`cairn: CAIRN_DATA: ${data} is not a folder (a file is in the way); set CAIRN_DATA to a folder this user can create and write\n`);
    }
    expect(readdirSync(folder)).toEqual(["not-a-folder"]);
  });

  it("CAIRN_DATA holding a cairn.db that is no database stops with one line naming it", () => {
    const data = realpathSync(tempDir());
    writeFileSync(join(data, "cairn.db"), "this is not a SQLite database, only some text that happens to be here.".repeat(20));
    const out = cli(["serve"], { CAIRN_DATA: data, PORT: "0" });
    expect(out).toMatchObject({ code: 1, stdout: "" });
    expect(out.stderr).toBe(
      `cairn: CAIRN_DATA: ${join(data, "cairn.db")} is not a SQLite database; set CAIRN_DATA to a folder this user can create and write, or put back the cairn.db from your backup\n`,
    );
    expect(existsSync(join(data, "secret.key"))).toBe(false);
  });

  it("a taken port stops the start with one line naming it and the fix, and creates neither ./data nor anything in CAIRN_DATA", async () => {
    const first = await startServer({ CAIRN_DATA: tempDir() });
    try {
      const port = new URL(first.url).port;
      const expected = `cairn: PORT ${port} is already in use: stop the program that holds it, or set PORT to a free port\n`;
      const cwd = realpathSync(tempDir());
      expect(cli(["serve"], { PORT: port, CAIRN_DATA: "", CAIRN_ISSUER: first.url }, cwd)).toMatchObject({ code: 1, stdout: "", stderr: expected });
      expect(readdirSync(cwd)).toEqual([]);
      const data = tempDir();
      expect(cli(["serve"], { PORT: port, CAIRN_DATA: data, CAIRN_ISSUER: first.url })).toMatchObject({ code: 1, stderr: expected });
      expect(readdirSync(data)).toEqual([]);
      // Several workers check the port the same way before they make anything.
      expect(cli(["serve"], { PORT: port, CAIRN_DATA: data, CAIRN_ISSUER: first.url, CAIRN_WORKERS: "2" })).toMatchObject({ code: 1, stderr: expected });
      expect(readdirSync(data)).toEqual([]);
      expect((await fetch(`${first.url}/healthz`)).status).toBe(200);
    } finally {
      await stop(first);
    }
  }, 30_000);
});
