// An Express app signing in with Auth.js (@auth/express). Its configuration is the catalog's auth.ts
// as Cairn filled it in (RP_SNIPPET), run as a module with "next-auth" answered by a shim; routes
// live under /api/auth, where NextAuth puts them, so the registered redirect URI fits unchanged.
import { ExpressAuth, getSession } from "@auth/express";
import express from "express";
import { configs } from "./next-auth.shim.mjs";

const shim = new URL("./next-auth.shim.mjs", import.meta.url).href;
const snippet = process.env.RP_SNIPPET.replace('from "next-auth"', `from "${shim}"`);
await import(`data:text/javascript,${encodeURIComponent(snippet)}`);
const [fromSnippet] = configs;
const issuer = fromSnippet.providers[0].issuer;

const config = {
  ...fromSnippet,
  basePath: "/api/auth",
  callbacks: {
    // Auth.js gives its user a random id; the session shows Cairn's subject and username beside
    // the name and email it keeps, and the ID token's algorithm (profile and account: at sign-in only).
    jwt: ({ token, profile, account }) => {
      if (!profile || !account) return token;
      const header = JSON.parse(Buffer.from(account.id_token.split(".")[0], "base64url").toString());
      return { ...token, cairn: { sub: profile.sub, preferred_username: profile.preferred_username, id_token_alg: header.alg } };
    },
    session: ({ session, token }) => ({ ...session, user: { ...session.user, ...token.cairn } }),
    // signOut's callbackUrl may lead on to Cairn's end_session (RP-initiated logout); nowhere else off-site.
    redirect: ({ url, baseUrl }) => {
      if (url.startsWith("/")) return `${baseUrl}${url}`;
      return url.startsWith(`${baseUrl}/`) || url.startsWith(`${issuer}/`) ? url : baseUrl;
    },
  },
};

const escapeHtml = (text) => String(text ?? "").replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
const page = (title, body) => `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title></head><body>${body}</body></html>`;

const app = express();
app.use("/api/auth", ExpressAuth(config));

app.get("/", async (req, res) => {
  const session = await getSession(req, config);
  if (!session) return res.send(page("Signed out", `<h1>Not signed in</h1><a href="/api/auth/signin">Sign in</a>`));
  const rows = ["sub", "preferred_username", "name", "email", "id_token_alg"]
    .map((k) => `<dt>${k}</dt><dd data-user="${k}">${escapeHtml(session.user[k])}</dd>`)
    .join("");
  res.send(page("Signed in", `<h1>Signed in with Cairn</h1><dl>${rows}</dl><a href="/logout">Sign out</a>`));
});

// Auth.js's own sign-out page, then on to Cairn's end_session to end the Cairn session too.
app.get("/logout", (_req, res) => {
  res.redirect(`/api/auth/signout?${new URLSearchParams({ callbackUrl: process.env.CAIRN_LOGOUT_URL })}`);
});

app.listen(Number(process.env.PORT), "127.0.0.1", () => console.log("listening"));
