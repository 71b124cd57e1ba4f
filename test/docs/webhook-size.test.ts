import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import { createHmac } from "node:crypto";
import { startApp, type TestApp } from "../helpers/app.ts";

/** GitHub's push deliveries reach 25 MB; every other route keeps its 1 MiB limit. */
const SECRET = "webhook size secret";
let app: TestApp;
beforeAll(async () => {
  app = await startApp({ env: { DOCS_WEBHOOK_SECRET: SECRET } });
});
afterAll(() => app.stop());

const signed = (body: string) => ({
  "content-type": "application/json",
  "x-github-event": "push",
  "x-hub-signature-256": `sha256=${createHmac("sha256", SECRET).update(body).digest("hex")}`,
});

describe("body limits", () => {
  it("takes a 3 MB push delivery on the webhook", async () => {
    const body = JSON.stringify({ ref: "refs/heads/main", repository: { full_name: "acme/unknown" }, padding: "x".repeat(3 * 1024 * 1024) });
    const res = await fetch(`${app.url}/api/webhook`, { method: "POST", headers: signed(body), body });
    expect(res.status).toBe(200);
    expect(await res.text()).toBe("repo not configured");
  });

  it("refuses more than 25 MiB there, and more than 1 MiB anywhere else, with 413", async () => {
    const huge = "x".repeat(25 * 1024 * 1024 + 1);
    const webhook = await fetch(`${app.url}/api/webhook`, { method: "POST", headers: signed(huge), body: huge }).then(
      (r) => r.status,
      () => 413,
    );
    expect(webhook).toBe(413);
    const other = await fetch(`${app.url}/api/init/setup`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: "x".repeat(2 * 1024 * 1024),
    });
    expect(other.status).toBe(413);
    expect(await other.json()).toEqual({ error: "Payload too large", code: "payload_too_large" });
  });
});
