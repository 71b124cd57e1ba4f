import { beforeAll, describe, expect, it } from "bun:test";
import { randomUUID } from "node:crypto";
import type { TestApp } from "../helpers/app.ts";
import type { SignedUp } from "../helpers/identity.ts";
import { articleOf, deliver, PING, pushPayload, served, signature } from "./docs.fixtures.ts";
import { SECRET, SETUP, webhookWorld } from "./webhook.fixtures.ts";

/* Spec 3 section 5.3: the docs webhook's signature (X-Hub-Signature-256) over the bytes as sent: absent, wrong or of other bytes, it is refused. */
const { handbook, cacheRows, cast } = webhookWorld({ open: true });
let app: TestApp;
let openApp: TestApp;
let openAdmin: SignedUp;
beforeAll(() => ({ app, openApp, openAdmin } = cast));

describe("spec 3 section 5.3: the signature", () => {
  const wrong: [string, (body: string) => string | null][] = [
    ["no X-Hub-Signature-256 header", () => null],
    ["an empty header", () => ""],
    ["a signature made with another secret", (body) => signature("It's a secret to nobody", body)],
    ["the hex without its sha256= prefix", (body) => signature(SECRET, body).slice("sha256=".length)],
    ["a sha1= signature (the older X-Hub-Signature form)", (body) => `sha1=${new Bun.CryptoHasher("sha1", SECRET).update(body).digest("hex")}`],
    ["the right signature cut short by one digit", (body) => signature(SECRET, body).slice(0, -1)],
    ["the signature of other bytes (one more space)", (body) => signature(SECRET, `${body} `)],
  ];
  for (const [name, sign] of wrong)
    it(`answers 401 {"error":"bad signature"} to ${name}, and invalidates nothing`, async () => {
      const h = await handbook();
      h.put(SETUP, "# Setup\n\nInstall it with a wrench.\n");
      const before = h.hits();
      const rows = (await cacheRows(h.id)).length;
      const body = JSON.stringify(pushPayload(h.fullName, [{ modified: [SETUP] }]));
      const delivery = randomUUID();
      const res = await deliver(app, "push", body, { sign: sign(body), delivery });
      expect(res.status).toBe(401);
      expect(res.contentType).toStartWith("application/json");
      expect(res.data).toEqual({ error: "bad signature", code: "bad_signature" });
      expect(await cacheRows(h.id)).toHaveLength(rows);
      const pages = await h.viewAll();
      expect(served(before, h.hits())).toEqual({});
      expect(articleOf(pages["en/guide/setup"] as string)).toContain("Install it with care.");
      // A refused request does not use the delivery up: GitHub's redelivery of it, signed, is processed.
      expect((await deliver(app, "push", body, { secret: SECRET, delivery })).data).toEqual({ invalidated: 1 });
    });

  it("verifies the bytes as sent: whitespace, CRLF, \\u escapes, raw UTF-8 and emoji; the same JSON re-serialized does not verify", async () => {
    const h = await handbook();
    h.put(SETUP, "# Setup\n\nInstall it with a wrench.\n");
    // \u0041 in the name: the repository is read only after the bytes are verified.
    const name = h.fullName.replace("a", "\\u0041");
    const body = [
      "{\r\n",
      '  "ref" :  "refs/heads/main" ,\r\n',
      `\t"repository": { "full_name": "${name}", "description": "Caf\\u00e9 \\ud83d\\ude80 and café 🚀 and cafe\u0301" },\r\n`,
      '  "pusher": {"name": "Zoë 👩‍💻", "email": null},\r\n',
      '  "commits": [ {\r\n',
      '      "id": "0000000000000000000000000000000000000001", "message": "Mise \\u00e0 jour \\"quoted\\" \\/ slash \\t tab",\r\n',
      `      "added": [], "removed": [], "modified": [ "${SETUP}" ] } ]   \r\n`,
      "}\r\n",
    ].join("");
    const raw = new TextEncoder().encode(body);
    const reserialized = JSON.stringify(JSON.parse(body));
    const others: [string, string | Uint8Array][] = [
      ["re-serialized", reserialized],
      ["re-serialized with two-space indents", JSON.stringify(JSON.parse(body), null, 2)],
      ["CRLF made LF", body.replaceAll("\r\n", "\n")],
      ["trimmed", body.trim()],
      ["NFC-normalized", body.normalize("NFC")],
      ["encoded as Latin-1", Buffer.from(body, "latin1")],
    ];
    for (const [what, bytes] of others) {
      const res = await deliver(app, "push", raw, { sign: signature(SECRET, bytes) });
      expect({ what, status: res.status, data: res.data }).toEqual({ what, status: 401, data: { error: "bad signature", code: "bad_signature" } });
    }
    expect((await h.view("en", "guide/setup")).html).toContain("Install it with care.");
    const res = await deliver(app, "push", raw, { sign: signature(SECRET, raw) });
    expect(res.status).toBe(200);
    expect(res.data).toEqual({ invalidated: 1 });
    expect(articleOf((await h.view("en", "guide/setup")).html)).toContain("Install it with a wrench.");
  });

  it("accepts unsigned requests when DOCS_WEBHOOK_SECRET is empty", async () => {
    const h = await handbook(openApp, openAdmin);
    h.put(SETUP, "# Setup\n\nInstall it with a wrench.\n");
    const res = await deliver(openApp, "push", pushPayload(h.fullName, [{ modified: [SETUP] }]), { sign: null });
    expect(res.status).toBe(200);
    expect(res.data).toEqual({ invalidated: 1 });
    expect(articleOf((await h.view("en", "guide/setup")).html)).toContain("Install it with a wrench.");
    expect((await deliver(openApp, "ping", PING, { sign: null })).data).toEqual({ pong: true });
  });

  it("does not accept unsigned requests while the secret is set", async () => {
    const res = await deliver(app, "ping", PING, { sign: null });
    expect(res.status).toBe(401);
    expect(res.data).toEqual({ error: "bad signature", code: "bad_signature" });
  });
});
