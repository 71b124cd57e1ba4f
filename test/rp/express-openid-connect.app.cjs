// An Express app whose sign-in is the catalog's express-openid-connect snippet, run as Cairn filled
// it in (RP_SNIPPET): nothing is configured here that the snippet does not say.
const express = require("express");

const app = express();
new Function("app", "require", process.env.RP_SNIPPET)(app, require);

const escapeHtml = (text) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
const page = (title, body) => `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title></head><body>${body}</body></html>`;

// authRequired (the default): a signed-out visitor is sent to Cairn before reaching a route.
app.get("/", (req, res) => {
  res.send(page("Signed in", `<h1>Signed in with Cairn</h1><pre id="user">${escapeHtml(JSON.stringify(req.oidc.user))}</pre>`));
});

// The refresh grant through the library, then Cairn's userinfo with the access token it returned.
app.get("/refresh", async (req, res, next) => {
  try {
    const before = req.oidc.accessToken.access_token;
    const refreshed = await req.oidc.accessToken.refresh();
    const userinfo = await req.oidc.fetchUserInfo();
    res.json({ before, after: refreshed.access_token, userinfo });
  } catch (e) {
    next(e);
  }
});

app.use((err, _req, res, _next) => {
  res.status(err.status ?? 500).send(page("Sign-in failed", `<h1>Sign-in failed</h1><p id="error">${escapeHtml(String(err.message))}</p>`));
});

app.listen(Number(process.env.PORT), "127.0.0.1", () => console.log("listening"));
