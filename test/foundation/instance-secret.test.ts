import { describe, expect, it } from "bun:test";
import * as nodeFs from "node:fs";
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { basename, join } from "node:path";
import { bootContext } from "../../src/boot.ts";
import { loadConfig } from "../../src/config/config.ts";
import { closeDatabase } from "../../src/db/client.ts";
import { createSecretFile, InstanceSecretError, readSecretFile } from "../../src/keys/instance-secret.ts";
import { signingKey } from "../../src/keys/keystore.ts";
import { type DurableFs, writeNewFile } from "../../src/shared/durable-file.ts";
import { tempDir } from "../helpers/temp.ts";

/** Real node:fs, every call written down by the file it touches; `before` runs ahead of each call. */
function recordingFs(folder: string, before: (call: string) => void = () => {}) {
  const calls: string[] = [];
  const byFd = new Map<number, string>();
  const name = (path: unknown) => (path === folder ? "<folder>" : basename(String(path)).replace(/partial-\d+-[0-9a-f]+$/, "partial"));
  const note = (call: string) => {
    before(call);
    calls.push(call);
  };
  const fs: DurableFs = {
    ...nodeFs,
    openSync: ((path: string, flags: string, mode?: number) => {
      note(`open ${name(path)} ${flags}${mode === undefined ? "" : ` ${mode.toString(8)}`}`);
      const fd = nodeFs.openSync(path, flags, mode);
      byFd.set(fd, name(path));
      return fd;
    }) as DurableFs["openSync"],
    writeSync: ((fd: number, ...rest: unknown[]) => {
      note(`write ${byFd.get(fd)}`);
      return (nodeFs.writeSync as (...args: unknown[]) => number)(fd, ...rest);
    }) as DurableFs["writeSync"],
    fsyncSync: (fd) => {
      note(`fsync ${byFd.get(fd)}`);
      nodeFs.fsyncSync(fd);
    },
    closeSync: (fd) => {
      note(`close ${byFd.get(fd)}`);
      nodeFs.closeSync(fd);
    },
    linkSync: (from, to) => {
      note(`link ${name(from)} ${name(to)}`);
      nodeFs.linkSync(from, to);
    },
    renameSync: (from, to) => {
      note(`rename ${name(from)} ${name(to)}`);
      nodeFs.renameSync(from, to);
    },
    rmSync: (path, options) => {
      note(`rm ${name(path)}`);
      nodeFs.rmSync(path, options);
    },
  };
  return { fs, calls };
}

describe("secret.key is written durably (issue 39, item 16)", () => {
  it("goes to a temporary file, is fsynced, then linked into place and its folder fsynced; never visible partial", () => {
    const folder = tempDir();
    const target = join(folder, "secret.key");
    const key = `${"k".repeat(43)}\n`;
    // Before every step: the key file is either absent or whole (what a power cut at that step could leave).
    const { fs, calls } = recordingFs(folder, () => {
      if (existsSync(target)) expect(readFileSync(target, "utf8")).toBe(key);
    });
    expect(writeNewFile(target, key, { mode: 0o600, fs })).toBe(true);
    expect(calls).toEqual([
      "open secret.key.partial wx 600",
      "write secret.key.partial",
      "fsync secret.key.partial",
      "close secret.key.partial",
      "link secret.key.partial secret.key",
      "open <folder> r",
      "fsync <folder>",
      "close <folder>",
      "rm secret.key.partial",
    ]);
    expect(readFileSync(target, "utf8")).toBe(key);
    expect(statSync(target).mode & 0o777).toBe(0o600);
    expect(readdirSync(folder)).toEqual(["secret.key"]);
  });

  it("a failure before the file is in place leaves no secret.key (never an empty one) and no temporary file", () => {
    const folder = tempDir();
    const target = join(folder, "secret.key");
    const { fs } = recordingFs(folder, (call) => {
      if (call.startsWith("fsync secret.key.partial")) throw Object.assign(new Error("EIO: i/o error, fsync"), { code: "EIO" });
    });
    expect(() => writeNewFile(target, "k".repeat(43), { fs })).toThrow("EIO");
    expect(readdirSync(folder)).toEqual([]);
  });

  it("never replaces a key another process wrote a moment ago", () => {
    const folder = tempDir();
    const target = join(folder, "secret.key");
    writeFileSync(target, "theirs\n");
    expect(writeNewFile(target, "mine\n")).toBe(false);
    expect(readFileSync(target, "utf8")).toBe("theirs\n");
    expect(readdirSync(folder)).toEqual(["secret.key"]);
    // createSecretFile then answers the key that is there (here one too short to use: refused).
    expect(() => createSecretFile(target)).toThrow(InstanceSecretError);
  });

  it("createSecretFile makes an owner-only file with 32 random bytes", () => {
    const target = join(tempDir(), "secret.key");
    const key = createSecretFile(target);
    expect(key).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(readFileSync(target, "utf8")).toBe(`${key}\n`);
    expect(statSync(target).mode & 0o777).toBe(0o600);
  });

  it.each([
    ["an empty", ""],
    ["a newline-only", "\n"],
    ["a cut-short", "abcdefghijklmnopqrstuvwxyz01234\n"],
  ])("%s secret.key is refused with one line naming the file and the fix", (_, contents) => {
    const file = join(tempDir(), "secret.key");
    writeFileSync(file, contents);
    const n = contents.trim().length;
    expect(() => readSecretFile(file, { nothingSealed: false })).toThrow(
      new InstanceSecretError(
        `${file} is empty or cut short (${n} characters; a key has at least 32): put back the secret.key saved with this database (cairn backup writes it beside the copy as FILE.key), or set CAIRN_SECRET to the secret it ran with`,
      ),
    );
    expect(() => readSecretFile(file, { nothingSealed: true })).toThrow(
      `${file} is empty or cut short (${n} characters; a key has at least 32): this database holds nothing sealed with it yet: delete the file and start again, and Cairn makes a new one`,
    );
  });
});

describe("the instance key must open the database's sealed values (issue 39, item 15)", () => {
  /** A data folder whose database holds a sealed signing key, as after the first sign-in. */
  async function usedInstance(env: Record<string, string> = {}) {
    const dataDir = tempDir();
    const config = loadConfig({ CAIRN_DATA: dataDir, CAIRN_LOG: "silent", ...env });
    const ctx = await bootContext(config);
    await signingKey(ctx, "session", "EdDSA");
    closeDatabase(ctx.db);
    return { dataDir, config, file: join(dataDir, "secret.key") };
  }

  it("a missing secret.key stops the start, and no new key is made", async () => {
    const { config, file } = await usedInstance();
    nodeFs.rmSync(file);
    await expect(bootContext(config)).rejects.toThrow(
      new InstanceSecretError(
        `${file} is missing, but this database holds values sealed with it: put back the secret.key saved with this database (cairn backup writes it beside the copy as FILE.key), or set CAIRN_SECRET to the secret it ran with`,
      ),
    );
    expect(existsSync(file)).toBe(false);
  });

  it("another instance's secret.key stops the start", async () => {
    const { config, file } = await usedInstance();
    writeFileSync(file, `${"z".repeat(43)}\n`);
    await expect(bootContext(config)).rejects.toThrow(`${file} does not open this database's sealed values (it is another instance's key)`);
  });

  it("a CAIRN_SECRET that is not the database's stops the start, naming CAIRN_SECRET", async () => {
    const { dataDir, file } = await usedInstance();
    const config = loadConfig({ CAIRN_DATA: dataDir, CAIRN_LOG: "silent", CAIRN_SECRET: "s".repeat(40) });
    await expect(bootContext(config)).rejects.toThrow(
      new InstanceSecretError(
        `CAIRN_SECRET does not open this database's sealed values: set it to the secret this database was sealed with, or unset it to use ${file}`,
      ),
    );
    const sealedWithEnv = await usedInstance({ CAIRN_SECRET: "a".repeat(40) });
    await expect(bootContext({ ...sealedWithEnv.config, secret: "b".repeat(40) })).rejects.toThrow(
      new InstanceSecretError("CAIRN_SECRET does not open this database's sealed values: set it to the secret this database was sealed with"),
    );
    const ctx = await bootContext(sealedWithEnv.config);
    closeDatabase(ctx.db);
  });

  it("a database from before the check is tried on its newest signing key, and gets the check", async () => {
    const { config, file } = await usedInstance();
    const ctx = await bootContext(config);
    ctx.db.$client.run("DELETE FROM settings WHERE key = 'instance_secret_check'");
    closeDatabase(ctx.db);
    const right = readFileSync(file, "utf8");
    writeFileSync(file, `${"z".repeat(43)}\n`);
    await expect(bootContext(config)).rejects.toThrow(InstanceSecretError);
    writeFileSync(file, right);
    const again = await bootContext(config);
    expect(again.db.$client.query("SELECT count(*) AS n FROM settings WHERE key = 'instance_secret_check'").get()).toEqual({ n: 1 });
    closeDatabase(again.db);
  });
});
