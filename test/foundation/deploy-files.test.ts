import { describe, expect, it } from "bun:test";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { parse } from "yaml";
import { startApp } from "../helpers/app.ts";
import { MAIN } from "../helpers/cli.ts";
import { spawnOwned } from "../helpers/processes.ts";
import { freePort, tempDir } from "../helpers/temp.ts";

/*
 * The deployment examples in .ci/deploy (README "Docker" and "systemd"): what can be checked
 * without a Docker daemon or a running systemd. CI builds the image itself when Docker is there.
 */
const ROOT = resolve(import.meta.dir, "../..");
const DEPLOY = join(ROOT, ".ci/deploy");
const read = (name: string) => readFileSync(join(DEPLOY, name), "utf8");

/** A Dockerfile's instructions per stage: continuation lines joined, comments dropped. */
function dockerStages(text: string): { from: string; instructions: [string, string][] }[] {
  const lines = text
    .replace(/\\\n/g, " ")
    .split("\n")
    .map((l) => l.trim())
    .filter((l) => l !== "" && !l.startsWith("#"));
  const stages: { from: string; instructions: [string, string][] }[] = [];
  for (const line of lines) {
    const [keyword = "", ...rest] = line.split(/\s+/);
    const args = rest.join(" ");
    if (keyword.toUpperCase() === "FROM") stages.push({ from: args, instructions: [] });
    else stages.at(-1)?.instructions.push([keyword.toUpperCase(), args]);
  }
  return stages;
}

describe(".ci/deploy/Dockerfile", () => {
  const stages = dockerStages(read("Dockerfile"));
  const [build, runtime] = stages;
  const all = (stage: typeof runtime, keyword: string) => (stage?.instructions ?? []).filter(([k]) => k === keyword).map(([, args]) => args);

  it("builds dist/cairn with npm ci and npm run build in a Node image", () => {
    expect(stages).toHaveLength(2);
    expect(build?.from).toMatch(/^node:\S+ AS build$/);
    expect(all(build, "RUN").join("\n")).toContain("npm ci");
    expect(all(build, "RUN").join("\n")).toContain("npm run build");
  });

  it("runs the executable alone in slim Debian, as a user who is not root", () => {
    expect(runtime?.from).toMatch(/^debian:\S+-slim$/);
    expect(all(runtime, "COPY")).toContain("--from=build /src/dist/cairn /usr/local/bin/cairn");
    const users = all(runtime, "USER");
    expect(users).toHaveLength(1);
    const [user = "", group = ""] = (users[0] as string).split(":");
    expect(user).toBe("10001");
    expect(group).not.toBe("0");
    expect(all(runtime, "RUN").join("\n")).toContain("--uid 10001");
  });

  it("keeps its data on the /data volume, serves port 3000 and checks /healthz", () => {
    expect(all(runtime, "VOLUME")).toEqual(['["/data"]']);
    expect(all(runtime, "ENV").join(" ")).toMatch(/CAIRN_DATA=\/data\b/);
    expect(all(runtime, "ENV").join(" ")).toMatch(/CAIRN_ISSUER=\S+/);
    expect(all(runtime, "EXPOSE")).toEqual(["3000"]);
    expect(all(runtime, "RUN").join("\n")).toMatch(/install -d -o 10001 -g 10001 -m 0700 \/data/);
    expect(all(runtime, "HEALTHCHECK")[0]).toContain('CMD ["cairn", "healthcheck"]');
    expect(all(runtime, "ENTRYPOINT")).toEqual(['["cairn"]']);
  });

  it("leaves dependencies, builds and data out of the build context", () => {
    const ignored = read("Dockerfile.dockerignore").split("\n");
    for (const path of ["node_modules", "dist", "data", ".git"]) expect(ignored).toContain(path);
  });
});

describe(".ci/deploy/compose.yaml", () => {
  const compose = parse(read("compose.yaml"));
  const service = compose.services?.cairn;

  it("parses as YAML and builds the Dockerfile from the repository root", () => {
    expect(service).toBeDefined();
    const context = resolve(DEPLOY, service.build.context);
    expect(context).toBe(ROOT);
    expect(existsSync(join(context, service.build.dockerfile))).toBe(true);
  });

  it("sets CAIRN_ISSUER to a public https URL", () => {
    expect(new URL(service.environment.CAIRN_ISSUER).protocol).toBe("https:");
  });

  it("keeps /data on a named volume", () => {
    const mounts: string[] = service.volumes;
    const data = mounts.find((m) => m.endsWith(":/data"));
    expect(data).toBeDefined();
    expect(Object.keys(compose.volumes ?? {})).toContain((data as string).split(":")[0] as string);
  });

  it("publishes the port on loopback only, for a reverse proxy on the host", () => {
    expect(service.ports).toEqual(["127.0.0.1:3000:3000"]);
  });
});

describe(".ci/deploy/cairn.service", () => {
  const unit = read("cairn.service");
  const settings = (key: string) => [...unit.matchAll(new RegExp(`^${key}=(.*)$`, "gm"))].map((m) => m[1] as string);

  it("runs as its own user in a state directory, restarted on failure, hardened", () => {
    expect(settings("User")).toEqual(["cairn"]);
    expect(settings("StateDirectory")).toEqual(["cairn"]);
    expect(settings("Environment")).toContain("CAIRN_DATA=/var/lib/cairn");
    expect(settings("Restart")).toEqual(["on-failure"]);
    for (const [key, value] of [
      ["NoNewPrivileges", "yes"],
      ["ProtectSystem", "strict"],
      ["ProtectHome", "yes"],
      ["PrivateTmp", "yes"],
      ["CapabilityBoundingSet", ""],
    ] as const)
      expect([key, settings(key)]).toEqual([key, [value]]);
  });

  const analyze = Bun.which("systemd-analyze");
  it.skipIf(!analyze)("passes systemd-analyze verify without a warning (skipped when systemd-analyze is missing)", () => {
    // verify also checks that ExecStart exists: this Bun stands in for /usr/local/bin/cairn.
    const dir = tempDir();
    const file = join(dir, "cairn.service");
    writeFileSync(file, unit.replace("/usr/local/bin/cairn serve", `${process.execPath} --version`));
    const result = Bun.spawnSync([analyze as string, "verify", file], { stdout: "pipe", stderr: "pipe" });
    expect({ code: result.exitCode, stderr: result.stderr.toString() }).toEqual({ code: 0, stderr: "" });
  });
});

describe("cairn healthcheck (the image's HEALTHCHECK)", () => {
  const healthcheck = async (port: number) => {
    const proc = spawnOwned([process.execPath, MAIN, "healthcheck"], { env: { ...process.env, PORT: String(port) }, stdout: "pipe", stderr: "pipe" });
    return { code: await proc.exited, stderr: await new Response(proc.stderr).text() };
  };

  it("exits 0 while the server on PORT answers /healthz", async () => {
    const app = await startApp();
    try {
      expect(await healthcheck(Number(new URL(app.url).port))).toEqual({ code: 0, stderr: "" });
    } finally {
      await app.stop();
    }
  });

  it("exits 1 saying why when nothing answers", async () => {
    const { code, stderr } = await healthcheck(freePort());
    expect(code).toBe(1);
    expect(stderr).toStartWith("cairn: no answer from http://127.0.0.1:");
  });
});
