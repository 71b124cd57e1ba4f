import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import { startApp, type TestApp } from "../helpers/app.ts";
import { manualClock } from "../helpers/clock.ts";
import { descendants, parseSvg } from "../helpers/svg.ts";
import type { SignedUp } from "../helpers/identity.ts";
import { teamOwner } from "../helpers/workspace.ts";

const clock = manualClock();
let app: TestApp;
let alice: SignedUp;
let teamId: string;

const api = (method: string, path: string, body?: unknown) => alice.browser.json(method, `/api/teams/${teamId}${path}`, body);
const svg = async (path: string) => {
  const res = await fetch(`${app.url}/api/shared/${path}`);
  return { res, text: await res.text() };
};
/** Every image must parse as strict XML 1.0; its text nodes are what a reader sees. */
const texts = (xml: string): string[] => {
  const svg = parseSvg(xml);
  return [svg, ...descendants(svg)].map((n) => n.text).filter((t) => t !== "");
};

async function sharedSet(name: string, titles: string[], link: Record<string, unknown> = {}) {
  const set = (await api("POST", "/sets", { name })).data.set;
  const ids: string[] = [];
  for (const title of titles) ids.push((await api("POST", `/sets/${set.id}/todos`, { title })).data.todo.id);
  const made = (await api("POST", `/sets/${set.id}/share-links`, link)).data.link;
  return { setId: set.id as string, ids, token: made.token as string, linkId: made.id as string };
}

beforeAll(async () => {
  app = await startApp({ overrides: { clock } });
  ({
    user: alice,
    team: { id: teamId },
  } = await teamOwner(app, "alice"));
});
afterAll(() => app.stop());

describe("spec 2 section 4.4: badge.svg and todo-list.svg", () => {
  it("serve well-formed SVG with a 60-second public cache header", async () => {
    const { token, ids } = await sharedSet("Groceries", ["Milk", "Bread", "Eggs"]);
    await api("PATCH", `/todos/${ids[0]}`, { completed: true });
    for (const path of [`${token}/badge.svg`, `${token}/todo-list.svg`]) {
      const { res, text } = await svg(path);
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toBe("image/svg+xml; charset=utf-8");
      expect(res.headers.get("cache-control")).toBe("public, max-age=60");
      expect(text.startsWith("<svg")).toBe(true);
      expect(texts(text).join(" ")).toContain("Groceries");
    }
    expect(texts((await svg(`${token}/badge.svg`)).text)).toContain("1/3");
  });

  it("escape hostile set names and titles, and drop invalid colors instead of injecting them", async () => {
    const evil = `<script>alert("x")</script> & ' ]]>`;
    const { token } = await sharedSet(`Set ${evil}`, [`Todo ${evil}`]);
    const color = encodeURIComponent(`red" onload="alert(1)`);
    for (const path of [
      `${token}/badge.svg?labelColor=${color}&color=${color}`,
      `${token}/todo-list.svg?bgColor=${color}&textColor=url(javascript:alert(1))`,
    ]) {
      const { text } = await svg(path);
      expect(text).not.toContain("<script");
      expect(text).not.toContain("onload");
      expect(text).not.toContain("javascript:");
      expect(texts(text).join("\n")).toContain(`Set ${evil}`);
    }
  });

  it("ignore capability flags and the email allow-list (read-only images)", async () => {
    const { token } = await sharedSet("Private", ["Hidden"], { canView: false, allowedEmails: "friend@example.com" });
    expect((await app.json("GET", `/api/shared/${token}`)).status).toBe(403);
    const { res, text } = await svg(`${token}/badge.svg`);
    expect(res.status).toBe(200);
    expect(texts(text)).toContain("0/1");
  });

  it("answer a 404 badge reading not found for an unknown token and for a deleted set", async () => {
    for (const path of [`${"A".repeat(32)}/badge.svg`, "nonsense/todo-list.svg"]) {
      const { res, text } = await svg(path);
      expect(res.status).toBe(404);
      expect(res.headers.get("content-type")).toBe("image/svg+xml; charset=utf-8");
      expect(texts(text).join(" ")).toContain("not found");
    }
    const { token, setId } = await sharedSet("Doomed", ["One"]);
    expect((await svg(`${token}/badge.svg`)).res.status).toBe(200);
    await api("DELETE", `/sets/${setId}`);
    const gone = await svg(`${token}/badge.svg?style=flat-square`);
    expect(gone.res.status).toBe(404);
    expect(texts(gone.text).join(" ")).toContain("not found");
  });

  it("cache for 60 seconds in the server, but a deleted link stops at once", async () => {
    const { token, ids, linkId } = await sharedSet("Cached", ["A", "B"]);
    expect(texts((await svg(`${token}/badge.svg`)).text)).toContain("0/2");
    await api("PATCH", `/todos/${ids[0]}`, { completed: true });
    // Within the minute: the cached image.
    clock.advance(59_000);
    expect(texts((await svg(`${token}/badge.svg`)).text)).toContain("0/2");
    // Another query is another image, drawn fresh; parameters the spec does not name are ignored.
    expect(texts((await svg(`${token}/badge.svg?style=flat-square`)).text)).toContain("1/2");
    expect(texts((await svg(`${token}/badge.svg?cachebuster=7`)).text)).toContain("0/2");
    clock.advance(2_000);
    expect(texts((await svg(`${token}/badge.svg`)).text)).toContain("1/2");
    await api("DELETE", `/share-links/${linkId}`);
    expect((await svg(`${token}/badge.svg`)).res.status).toBe(404);
  });

  it("apply the todo-list clamps and parameters", async () => {
    const { token } = await sharedSet(
      "Clamped",
      Array.from({ length: 5 }, (_, i) => `Item ${i}`),
    );
    const width = async (query: string) => Number(/^<svg[^>]*\swidth="(\d+(?:\.\d+)?)"/.exec((await svg(`${token}/todo-list.svg?${query}`)).text)?.[1]);
    expect(await width("width=50")).toBe(200);
    expect(await width("width=5000")).toBe(1000);
    expect(await width("width=640")).toBe(640);
    const one = texts((await svg(`${token}/todo-list.svg?maxItems=1`)).text).join("\n");
    expect(one).toContain("Item 0");
    expect(one).not.toContain("Item 1");
    expect(one).toMatch(/4 more/);
    const bare = texts((await svg(`${token}/todo-list.svg?title=&showProgress=false`)).text);
    expect(bare).not.toContain("Clamped");
  });
});
