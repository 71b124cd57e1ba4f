import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import { sql } from "drizzle-orm";
import { startApp, type TestApp } from "../helpers/app.ts";
import { signUp, type SignedUp } from "../helpers/identity.ts";

/*
 * Issue 43: Admin → Users searches by prefix through indexes (username, email, the email's domain
 * from its "@", the name, the name's last word), and counts matches only up to 1,000.
 */

let app: TestApp;
let admin: SignedUp;
beforeAll(async () => {
  app = await startApp();
  admin = await signUp(app, "root", { name: "Site Root" });
  // The others in the shape the server writes, by SQL: the count needs more than a thousand.
  const people: [string, string, string][] = [
    ["ada", "ada@lovelace.org", "Ada Lovelace"],
    ["grace", "hopper@navy.mil", "Grace Brewster Hopper"],
    ["emile", "emile@example.com", "Émile Zola"],
    ["smithy", "anvil@example.com", "Forge"],
    ["jsmith", "john@corp.example", "John Smith"],
    ["under_score", "under@example.com", "Under Score"],
  ];
  for (let i = 0; i < 1200; i++) people.push([`bulk${String(i).padStart(4, "0")}`, `bulk${i}@bulk.test`, `Bulk Person ${i}`]);
  const rows = people.map(([username, email, name]) => sql`(${crypto.randomUUID()}, ${username}, ${email}, 0, ${name}, '', 'x', 'user', 0, 0)`);
  await app.ctx.db.run(
    sql`INSERT INTO users (id, username, email, email_verified, name, picture_url, password_hash, role, created_at, updated_at) VALUES ${sql.join(rows, sql`, `)}`,
  );
});
afterAll(() => app.stop());

type Page = { users: { username: string }[]; total: number; total_capped: boolean };
const search = async (q: string, extra = ""): Promise<Page> => {
  const res = await admin.browser.json("GET", `/api/oauth/admin/users?q=${encodeURIComponent(q)}${extra}`);
  expect(res.status).toBe(200);
  return res.data;
};
const names = (page: Page) => page.users.map((u) => u.username);

describe("admin user search by prefix (issue 43)", () => {
  it("matches the start of the username, the email, the name or its last word, in any case", async () => {
    expect(names(await search("ADA"))).toEqual(["ada"]);
    expect(names(await search("hopper@"))).toEqual(["grace"]);
    expect(names(await search("Grace B"))).toEqual(["grace"]);
    expect(names(await search("hopp"))).toEqual(["grace"]);
    expect(names(await search("smi"))).toEqual(["smithy", "jsmith"]);
    expect(names(await search("under_"))).toEqual(["under_score"]);
  });

  it("matches the email's domain when typed from its @", async () => {
    expect(names(await search("@corp"))).toEqual(["jsmith"]);
    expect(names(await search("corp"))).toEqual([]);
  });

  it("is a prefix search, not a substring one: the middle of a word matches nothing", async () => {
    expect(names(await search("ovelace"))).toEqual([]);
    expect(names(await search("mith"))).toEqual([]);
    expect(await search("%")).toMatchObject({ users: [], total: 0, total_capped: false });
  });

  it("lists username matches first, then the others, each once", async () => {
    // "smithy" by username; "jsmith" by the last word of John Smith; neither twice.
    expect(await search("smith")).toMatchObject({ total: 2, total_capped: false });
    // Émile's capital is not ASCII: found by the username and the email (lowercase), the name as typed.
    expect(names(await search("emile"))).toEqual(["emile"]);
    expect(names(await search("Émile"))).toEqual(["emile"]);
  });

  it("counts up to 1,000 matches and says when more match; pages through them all the same", async () => {
    // Usernames bulk1000..bulk1199, and the emails bulk1@, bulk10..19@ and bulk100..199@ of others.
    expect(await search("bulk1")).toMatchObject({ total: 311, total_capped: false });
    const many = await search("bulk");
    expect([many.total, many.total_capped, many.users.length]).toEqual([1000, true, 50]);
    expect(names(many).slice(0, 2)).toEqual(["bulk0000", "bulk0001"]);
    const far = await search("bulk", "&limit=10&offset=1190");
    expect(names(far)).toEqual(["bulk1190", "bulk1191", "bulk1192", "bulk1193", "bulk1194", "bulk1195", "bulk1196", "bulk1197", "bulk1198", "bulk1199"]);
  });

  it("counts every user exactly when nothing is typed", async () => {
    const all = (await admin.browser.json("GET", "/api/oauth/admin/users?limit=5")).data as Page;
    expect([all.total, all.total_capped, all.users.length]).toEqual([1207, false, 5]);
  });
});
