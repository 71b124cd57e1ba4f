import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import { isForbiddenAddress, OutboundRefused, safeFetch } from "../../src/shared/safe-fetch.ts";

describe("the outbound guard (ARCHITECTURE section 4)", () => {
  it.each([
    ["127.0.0.1", true], ["10.1.2.3", true], ["172.16.0.1", true], ["172.31.255.255", true], ["192.168.1.1", true],
    ["169.254.169.254", true], ["100.64.0.1", true], ["0.0.0.0", true], ["224.0.0.1", true], ["255.255.255.255", true],
    ["192.0.2.10", true], ["198.51.100.7", true], ["203.0.113.9", true], ["198.18.0.1", true],
    ["::1", true], ["::", true], ["fc00::1", true], ["fd12::1", true], ["fe80::1", true], ["ff02::1", true], ["2001:db8::1", true], ["::ffff:10.0.0.1", true],
    ["8.8.8.8", false], ["172.32.0.1", false], ["93.184.216.34", false], ["2606:4700::1111", false], ["::ffff:8.8.8.8", false],
  ])("classifies %s as forbidden: %p", (ip, forbidden) => {
    expect(isForbiddenAddress(ip)).toBe(forbidden);
  });

  let server: ReturnType<typeof Bun.serve>;
  beforeAll(() => {
    server = Bun.serve({
      port: 0,
      hostname: "127.0.0.1",
      fetch: (req) => (new URL(req.url).pathname === "/redirect" ? Response.redirect("http://169.254.169.254/latest/meta-data", 302) : new Response("ok")),
    });
  });
  afterAll(() => server.stop(true));

  it("refuses plain http, loopback and names that resolve to loopback", async () => {
    await expect(safeFetch(`http://127.0.0.1:${server.port}/`, {}, { allowLoopback: false })).rejects.toBeInstanceOf(OutboundRefused);
    await expect(safeFetch(`https://127.0.0.1:${server.port}/`, {}, { allowLoopback: false })).rejects.toThrow("forbidden address");
    await expect(safeFetch(`https://localhost:${server.port}/`, {}, { allowLoopback: false })).rejects.toThrow("forbidden address");
    await expect(safeFetch("https://user:pw@example.invalid/", {}, { allowLoopback: false })).rejects.toBeInstanceOf(OutboundRefused);
  });

  it("with the test-only switch reaches loopback, but re-checks every redirect", async () => {
    expect((await safeFetch(`http://127.0.0.1:${server.port}/`, {}, { allowLoopback: true })).body).toBe("ok");
    await expect(safeFetch(`http://127.0.0.1:${server.port}/redirect`, {}, { allowLoopback: true })).rejects.toBeInstanceOf(OutboundRefused);
  });

  it("reaches an operator-configured origin on the LAN or loopback, that origin only, still re-checking redirects", async () => {
    const origin = `http://127.0.0.1:${server.port}`;
    expect((await safeFetch(`${origin}/`, {}, { allowLoopback: false, trustedOrigin: origin })).body).toBe("ok");
    await expect(safeFetch(`http://127.0.0.1:${(server.port as number) + 1}/`, {}, { allowLoopback: false, trustedOrigin: origin })).rejects.toBeInstanceOf(OutboundRefused);
    await expect(safeFetch(`${origin}/redirect`, {}, { allowLoopback: false, trustedOrigin: origin })).rejects.toBeInstanceOf(OutboundRefused);
    await expect(safeFetch(`http://user:pw@127.0.0.1:${server.port}/`, {}, { allowLoopback: false, trustedOrigin: origin })).rejects.toBeInstanceOf(OutboundRefused);
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
