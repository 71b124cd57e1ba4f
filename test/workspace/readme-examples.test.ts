import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { startApp, type TestApp } from "../helpers/app.ts";
import type { SignedUp } from "../helpers/identity.ts";
import { teamOwner } from "../helpers/workspace.ts";

// The import examples of docs/workspace.md (moved there from the README) are what users copy: each must import as the tree it shows.
const page = readFileSync(join(import.meta.dir, "../../docs/workspace.md"), "utf8");
const section = page.slice(page.indexOf("## Import and export"));
const block = (lang: string) => new RegExp(`\`\`\`${lang}\\n([\\s\\S]*?)\`\`\``).exec(section)?.[1] ?? "";

let app: TestApp;
let alice: SignedUp;
let teamId: string;
beforeAll(async () => {
  app = await startApp();
  ({
    user: alice,
    team: { id: teamId },
  } = await teamOwner(app, "alice"));
});
afterAll(() => app.stop());

describe("docs/workspace.md: import format examples", () => {
  for (const [lang, format] of [
    ["markdown", "md"],
    ["json", "json"],
    ["yaml", "yaml"],
  ] as const) {
    it(`the ${lang} example imports as a new set with its tree, due dates and comment`, async () => {
      const content = block(lang);
      expect(content).toContain("Oat milk");
      const res = await alice.browser.json("POST", `/api/teams/${teamId}/sets/import`, {
        format,
        content,
        includeComments: true,
        setName: `Groceries ${format}`,
      });
      expect(res.status).toBe(201);
      expect(res.data.imported).toBe(3);
      const setId = res.data.set.id;
      const todos = (await alice.browser.json("GET", `/api/teams/${teamId}/sets/${setId}/todos`)).data.todos as {
        id: string;
        title: string;
        completed: boolean;
        parentId: string | null;
        commentCount: number;
        dueDate: string | null;
        dueTime: string | null;
      }[];
      const milk = todos.find((t) => t.title === "Milk")!;
      expect(todos.find((t) => t.title === "Oat milk")?.parentId).toBe(milk.id);
      expect(todos.find((t) => t.title === "Bread")?.completed).toBe(true);
      expect(milk.commentCount).toBe(1);
      expect(todos.map((t) => [t.title, t.dueDate, t.dueTime])).toEqual(
        expect.arrayContaining([
          ["Milk", "2026-12-05", null],
          ["Oat milk", "2026-12-04", "18:30"],
          ["Bread", null, null],
        ]),
      );
      if (format !== "md") expect(res.data.set).toMatchObject({ autoRenew: true, renewTime: "06:00", timezone: "Europe/Berlin" });
      // The examples share one id: remove this set so the next example can use it.
      await alice.browser.json("DELETE", `/api/teams/${teamId}/sets/${setId}`);
    });
  }
});
