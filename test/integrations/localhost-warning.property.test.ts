import { describe, expect, it } from "bun:test";
import fc from "fast-check";
import { localhostWarning } from "../../src/contract/reachability.ts";

const port = fc.integer({ min: 1, max: 65535 });
const loopbackIssuer = fc.tuple(fc.constantFrom("localhost", "127.0.0.1", "127.1.2.3", "[::1]"), port).map(([host, p]) => `http://${host}:${p}`);
const label = fc.stringMatching(/^[a-z][a-z0-9]{0,10}$/);
/** A host others can reach: a name under a public suffix, or a LAN address. */
const remoteHost = fc.oneof(
  fc.tuple(label, fc.constantFrom("example.com", "lan", "home.arpa")).map(([a, b]) => `${a}.${b}`),
  fc.tuple(fc.integer({ min: 0, max: 255 }), fc.integer({ min: 1, max: 254 })).map(([a, b]) => `192.168.${a}.${b}`),
);
const remoteApp = fc.tuple(fc.constantFrom("https", "http"), remoteHost, label).map(([s, h, p]) => `${s}://${h}/${p}`);
const localApp = fc.tuple(fc.constantFrom("localhost", "127.0.0.1", "[::1]"), port, label).map(([h, p, path]) => `http://${h}:${p}/${path}`);

describe("issue 42: links on a loopback issuer handed to other machines", () => {
  it("warns, naming the app's host and CAIRN_ISSUER, when the issuer is loopback and an app is not", () => {
    fc.assert(
      fc.property(loopbackIssuer, fc.array(localApp, { maxLength: 2 }), remoteApp, (issuer, locals, remote) => {
        const warning = localhostWarning(issuer, { apps: [...locals, remote] });
        expect(warning?.summary).toBe("Other machines cannot reach localhost.");
        expect(warning?.detail).toContain(new URL(remote).hostname);
        expect(warning?.detail).toContain(`reach Cairn at ${issuer}`);
        expect(warning?.detail).toContain("CAIRN_ISSUER");
      }),
    );
  });

  it("stays quiet when every app is on this machine, or none is known", () => {
    fc.assert(fc.property(loopbackIssuer, fc.array(localApp, { maxLength: 3 }), (issuer, apps) => expect(localhostWarning(issuer, { apps })).toBeNull()));
    expect(localhostWarning("http://localhost:3000", { apps: ["", "not a url"] })).toBeNull();
  });

  it("stays quiet for an issuer others can reach, whoever the links are for", () => {
    fc.assert(
      fc.property(remoteHost, fc.oneof(remoteApp, localApp), (host, app) => {
        expect(localhostWarning(`https://${host}`, { apps: [app] })).toBeNull();
        expect(localhostWarning(`https://${host}`, "other people")).toBeNull();
      }),
    );
  });

  it("always warns about share links on a loopback issuer: they are for other people", () => {
    fc.assert(
      fc.property(loopbackIssuer, (issuer) => {
        const warning = localhostWarning(issuer, "other people");
        expect(warning?.detail).toStartWith(`These links point at ${issuer}, which works only on this computer.`);
        expect(warning?.detail).toContain("CAIRN_ISSUER");
      }),
    );
  });

  it("a host that only starts like loopback is another machine", () => {
    for (const near of ["https://localhost.example.com/cb", "https://127.0.0.1.nip.io/cb"])
      expect(localhostWarning("http://localhost:3000", { apps: [near] })).not.toBeNull();
  });
});
