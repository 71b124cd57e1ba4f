import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import { isForbiddenAddress, OutboundRefused, safeFetch } from "../../src/shared/safe-fetch.ts";
import { freePort } from "../helpers/temp.ts";

/** The error a caller sees: always OutboundRefused, whatever went wrong. */
async function refusal(pending: Promise<unknown>): Promise<OutboundRefused> {
  const error = await pending.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(OutboundRefused);
  return error as OutboundRefused;
}

describe("the outbound guard (ARCHITECTURE section 4)", () => {
  it.each([
    ["127.0.0.1", true],
    ["10.1.2.3", true],
    ["172.16.0.1", true],
    ["172.31.255.255", true],
    ["192.168.1.1", true],
    ["169.254.169.254", true],
    ["100.64.0.1", true],
    ["0.0.0.0", true],
    ["224.0.0.1", true],
    ["255.255.255.255", true],
    ["192.0.2.10", true],
    ["198.51.100.7", true],
    ["203.0.113.9", true],
    ["198.18.0.1", true],
    ["::1", true],
    ["::", true],
    ["fc00::1", true],
    ["fd12::1", true],
    ["fe80::1", true],
    ["ff02::1", true],
    ["2001:db8::1", true],
    ["100::1", true],
    ["not an address", true],
    ["8.8.8.8", false],
    ["172.32.0.1", false],
    ["93.184.216.34", false],
    ["2606:4700::1111", false],
  ])("classifies %s as forbidden: %p", (ip, forbidden) => {
    expect(isForbiddenAddress(ip)).toBe(forbidden);
  });

  // A public server is not reached through these: refused whole, even around a public IPv4 address.
  it.each([
    "::ffff:127.0.0.1",
    "::ffff:7f00:1",
    "::ffff:169.254.169.254",
    "::ffff:a9fe:a9fe",
    "::ffff:10.0.0.1",
    "::ffff:192.168.1.1",
    "::ffff:8.8.8.8", // IPv4-mapped
    "::7f00:1",
    "::127.0.0.1",
    "::a9fe:a9fe",
    "::808:808", // IPv4-compatible (deprecated)
    "::ffff:0:7f00:1", // SIIT
    "64:ff9b::7f00:1",
    "64:ff9b::127.0.0.1",
    "64:ff9b:1::7f00:1", // NAT64
    "2002:7f00:1::",
    "2002:a9fe:a9fe::1", // 6to4
    "2001:0:4136:e378:8000:63bf:3fff:fdd2", // Teredo
  ])("refuses %s, an IPv6 form that embeds an IPv4 address", (ip) => {
    expect(isForbiddenAddress(ip)).toBe(true);
  });

  let server: ReturnType<typeof Bun.serve>;
  beforeAll(() => {
    server = Bun.serve({
      port: 0,
      hostname: "127.0.0.1",
      fetch: (req) => {
        const path = new URL(req.url).pathname;
        if (path === "/redirect") return Response.redirect("http://169.254.169.254/latest/meta-data", 302);
        if (path === "/mapped") return Response.redirect(`https://[::ffff:127.0.0.1]:${server.port}/`, 302);
        if (path === "/mapped-http") return Response.redirect(`http://[::ffff:127.0.0.1]:${server.port}/`, 302);
        return new Response("ok");
      },
    });
  });
  afterAll(() => server.stop(true));

  it("refuses plain http, loopback and names that resolve to loopback", async () => {
    await refusal(safeFetch(`http://127.0.0.1:${server.port}/`, {}, { allowLoopback: false }));
    expect((await refusal(safeFetch(`https://127.0.0.1:${server.port}/`, {}, { allowLoopback: false }))).detail).toContain("forbidden address");
    expect((await refusal(safeFetch(`https://localhost:${server.port}/`, {}, { allowLoopback: false }))).detail).toContain("forbidden address");
    await refusal(safeFetch("https://user:pw@example.invalid/", {}, { allowLoopback: false }));
  });

  it("refuses loopback written as an IPv4-mapped or IPv4-compatible IPv6 address, even with the test-only switch", async () => {
    for (const host of ["[::ffff:127.0.0.1]", "[::7f00:1]", "[::ffff:169.254.169.254]"]) {
      for (const allowLoopback of [false, true]) {
        expect((await refusal(safeFetch(`https://${host}:${server.port}/`, {}, { allowLoopback }))).detail).toContain("forbidden address");
      }
    }
  });

  it("with the test-only switch reaches loopback, but re-checks every redirect", async () => {
    expect((await safeFetch(`http://127.0.0.1:${server.port}/`, {}, { allowLoopback: true })).body).toBe("ok");
    await refusal(safeFetch(`http://127.0.0.1:${server.port}/redirect`, {}, { allowLoopback: true }));
    expect((await refusal(safeFetch(`http://127.0.0.1:${server.port}/mapped`, {}, { allowLoopback: true }))).detail).toContain("forbidden address");
    await refusal(safeFetch(`http://127.0.0.1:${server.port}/mapped-http`, {}, { allowLoopback: true }));
  });

  it("tells a caller the same thing for every failure, so nothing maps what listens where; the detail is for the log", async () => {
    const closed = freePort();
    const policy = { allowLoopback: true };
    const failures = [
      await refusal(safeFetch(`http://127.0.0.1:${closed}/`, {}, policy)), // connection refused
      await refusal(safeFetch(`https://127.0.0.1:${server.port}/`, {}, policy)), // no TLS there
      await refusal(safeFetch(`https://[::ffff:127.0.0.1]:${server.port}/`, {}, policy)), // the guard
      await refusal(safeFetch("not a url", {}, policy)),
    ];
    expect(new Set(failures.map((e) => e.message)).size).toBe(1);
    for (const e of failures) {
      for (const leak of ["ECONNREFUSED", "EPROTO", "TLS", "forbidden", String(closed), String(server.port), "127.0.0.1", "7f00"])
        expect(e.message).not.toContain(leak);
    }
    expect(failures[0]?.detail).toContain("ECONNREFUSED");
    expect(failures[1]?.detail).toContain("EPROTO");
  });

  it("reaches an operator-configured origin on the LAN or loopback, that origin only, still re-checking redirects", async () => {
    const origin = `http://127.0.0.1:${server.port}`;
    expect((await safeFetch(`${origin}/`, {}, { allowLoopback: false, trustedOrigin: origin })).body).toBe("ok");
    await refusal(safeFetch(`http://127.0.0.1:${(server.port as number) + 1}/`, {}, { allowLoopback: false, trustedOrigin: origin }));
    await refusal(safeFetch(`${origin}/redirect`, {}, { allowLoopback: false, trustedOrigin: origin }));
    await refusal(safeFetch(`${origin}/mapped`, {}, { allowLoopback: false, trustedOrigin: origin }));
    await refusal(safeFetch(`http://user:pw@127.0.0.1:${server.port}/`, {}, { allowLoopback: false, trustedOrigin: origin }));
  });

  it("keeps credentials on a same-origin redirect and drops them on a cross-origin one", async () => {
    const seen: Record<string, string | null> = {};
    const target = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: (req) => ((seen.other = req.headers.get("authorization")), new Response("other")) });
    const origin: ReturnType<typeof Bun.serve> = Bun.serve({
      port: 0,
      hostname: "127.0.0.1",
      fetch: (req): Response => {
        const path = new URL(req.url).pathname;
        seen[path] = req.headers.get("authorization");
        if (path === "/same") return Response.redirect(`http://127.0.0.1:${origin.port}/landed`, 302);
        if (path === "/away") return Response.redirect(`http://127.0.0.1:${target.port}/`, 302);
        return new Response("landed");
      },
    });
    try {
      const init = { headers: { authorization: "Bearer secret-token", accept: "application/json" } };
      expect((await safeFetch(`http://127.0.0.1:${origin.port}/same`, init, { allowLoopback: true })).body).toBe("landed");
      expect(seen["/landed"]).toBe("Bearer secret-token");
      expect((await safeFetch(`http://127.0.0.1:${origin.port}/away`, init, { allowLoopback: true })).body).toBe("other");
      expect(seen["/away"]).toBe("Bearer secret-token");
      expect(seen.other).toBeNull();
    } finally {
      target.stop(true);
      origin.stop(true);
    }
  });
});
