import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import { OutboundRefused, safeFetch } from "../../src/shared/safe-fetch.ts";

/** Two loopback servers (two origins): what reaches the second after a redirect from the first. */
let first: ReturnType<typeof Bun.serve>;
let second: ReturnType<typeof Bun.serve>;
const received: { method: string; body: string; path: string }[] = [];

beforeAll(() => {
  const record = async (request: Request) => {
    received.push({ method: request.method, body: await request.text(), path: new URL(request.url).pathname });
    return Response.json({ ok: true });
  };
  second = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: record });
  first = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    fetch(request) {
      const path = new URL(request.url).pathname;
      const [, kind, status] = path.split("/");
      if (kind === "away") return new Response(null, { status: Number(status), headers: { location: `http://127.0.0.1:${second.port}/landed` } });
      if (kind === "here") return new Response(null, { status: Number(status), headers: { location: "/landed" } });
      return record(request);
    },
  });
});
afterAll(() => {
  first.stop(true);
  second.stop(true);
});

const post = (path: string) =>
  safeFetch(
    `http://127.0.0.1:${first.port}${path}`,
    { method: "POST", body: "api_key=secret", headers: { "content-type": "text/plain" } },
    { allowLoopback: true },
  );

describe("a redirected request's body (it may hold a secret)", () => {
  it("never goes to another origin: 307 and 308 there are refused", async () => {
    for (const status of [307, 308]) {
      received.length = 0;
      const refused = await post(`/away/${status}`).then(
        () => null,
        (e: unknown) => e,
      );
      expect(refused).toBeInstanceOf(OutboundRefused);
      expect(received).toEqual([]);
    }
  });

  it("301, 302 and 303 become a GET without it, as browsers do", async () => {
    for (const status of [301, 302, 303]) {
      received.length = 0;
      expect((await post(`/away/${status}`)).status).toBe(200);
      expect(received).toEqual([{ method: "GET", body: "", path: "/landed" }]);
    }
  });

  it("307 to the same origin keeps it", async () => {
    received.length = 0;
    expect((await post("/here/307")).status).toBe(200);
    expect(received).toEqual([{ method: "POST", body: "api_key=secret", path: "/landed" }]);
  });
});
