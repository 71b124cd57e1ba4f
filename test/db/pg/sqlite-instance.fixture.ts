/**
 * Run by migrate-to-postgres.test.ts in a process of its own: makes a SQLite instance with data
 * in CAIRN_DATA through the app (accounts, a TOTP, an app, a personal token, a team with sets,
 * todos, a comment, an assignee and a share link, the guide's search index), then stops, as
 * `cairn serve` stopping does: when the process ends, nothing of it holds the file any more.
 * Prints `INSTANCE <json>` with what the test looks for.
 */
import { startApp } from "../../helpers/app.ts";
import { signInWithTotp, signUp } from "../../helpers/identity.ts";
import { registerApp } from "../../helpers/oauth.ts";
import { teamOwner, workspaceSignIn } from "../../helpers/workspace.ts";

/** More todos than one INSERT batch of the copy holds. */
const BULK = 1200;

const env: Record<string, string> = process.env.CAIRN_SECRET ? { CAIRN_SECRET: process.env.CAIRN_SECRET } : {};
const app = await startApp({ dataDir: process.env.CAIRN_DATA as string, env });
const { user: alice, team } = await teamOwner(app, "alice");
const bob = await signUp(app, "bob");
await alice.browser.json("POST", `/api/oauth/me/teams/${team.id}/members`, { username: "bob", role: "member" });
await workspaceSignIn(app, bob);

const api = async (user: typeof alice, method: string, path: string, body?: unknown) => {
  const res = await user.browser.json(method, `/api/teams/${team.id}${path}`, body);
  if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(res.data)}`);
  return res.data;
};
for (const user of [alice, bob]) await api(user, "GET", "/members");
const groceries: string = (await api(alice, "POST", "/sets", { name: "Groceries" })).set.id;
const todo = async (title: string, parentId?: string) => (await api(alice, "POST", `/sets/${groceries}/todos`, { title, parentId })).todo.id as string;
const milk = await todo("Milk");
await todo("Oat milk", milk);
const eggs = await todo("Eggs");
await api(alice, "PATCH", `/todos/${eggs}`, { completed: true });
await api(alice, "POST", `/todos/${milk}/comments`, { body: "Skimmed" });
await api(alice, "PUT", `/todos/${milk}/assignees`, { userIds: [bob.user.id] });
const shareLink: string = (await api(alice, "POST", `/sets/${groceries}/share-links`, {})).link.id;

await signInWithTotp(app, bob, Date.now);
await registerApp(alice);
await alice.browser.json("POST", "/api/oauth/me/tokens", { name: "cli", scopes: ["profile"] });
// The built-in guide's full-text index (docs_search, FTS5).
const search = await fetch(`${app.url}/docs/guide/_search?q=backup`);
if (search.status !== 200) throw new Error(`guide search: ${search.status}`);

// A set of more todos than a batch, one of them moved under a todo made after it (and one under
// that): the copy must insert parents first across batches. The app's triggers keep the set's counts.
const bulk: string = (await api(alice, "POST", "/sets", { name: "Bulk" })).set.id;
const sqlite = app.ctx.db.$client;
sqlite.run(
  `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?)
   INSERT INTO todos (id, set_id, team_id, parent_id, user_id, title, completed, sort_order, created_at, updated_at)
   SELECT printf('bulk-%04d', i), ?, ?, NULL, ?, 'Bulk ' || i, i % 3 = 0, i, ?, ? FROM n`,
  [BULK, bulk, team.id, alice.user.id, Date.now(), Date.now()],
);
sqlite.run("UPDATE todos SET parent_id = ? WHERE id = 'bulk-0001'", [`bulk-${BULK}`]);
sqlite.run("UPDATE todos SET parent_id = 'bulk-0001' WHERE id = 'bulk-0002'");

await app.stop();
process.stdout.write(`INSTANCE ${JSON.stringify({ teamId: team.id, sets: [groceries, bulk], shareLink })}\n`);
process.exit(0);
