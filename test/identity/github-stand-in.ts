import { createHash } from "node:crypto";

export type GithubUser = {
  id: number;
  login: string;
  name: string | null;
  email: string | null;
  emails: { email: string; primary: boolean; verified: boolean }[];
};

/**
 * A GitHub stand-in on loopback, speaking what Cairn uses of GitHub's OAuth apps: the authorize
 * page (which approves at once as `user`, as GitHub does for an authorized app), the token
 * endpoint (errors as 200 with `error`, as GitHub answers them; PKCE checked), `/user` and
 * `/user/emails`. The API lives under `/api/v3`, as on GitHub Enterprise Server.
 */
export function githubStandIn(app: { clientId: string; clientSecret: string }, port = 0) {
  const codes = new Map<string, { redirectUri: string; challenge: string; user: GithubUser }>();
  const tokens = new Map<string, GithubUser>();
  const state = { user: null as GithubUser | null, tokenRequests: [] as URLSearchParams[] };
  const server = Bun.serve({
    port,
    hostname: "127.0.0.1",
    async fetch(request) {
      const url = new URL(request.url);
      if (url.pathname === "/login/oauth/authorize") {
        const q = url.searchParams;
        if (q.get("client_id") !== app.clientId || !state.user) return new Response("unknown app", { status: 404 });
        if (q.get("deny"))
          return Response.redirect(
            `${q.get("redirect_uri")}?error=access_denied&error_description=The+user+has+denied+your+application+access.&state=${q.get("state")}`,
            302,
          );
        const code = crypto.randomUUID();
        codes.set(code, { redirectUri: q.get("redirect_uri") as string, challenge: q.get("code_challenge") as string, user: state.user });
        return Response.redirect(`${q.get("redirect_uri")}?code=${code}&state=${encodeURIComponent(q.get("state") as string)}`, 302);
      }
      if (url.pathname === "/login/oauth/access_token" && request.method === "POST") {
        const form = new URLSearchParams(await request.text());
        state.tokenRequests.push(form);
        const grant = codes.get(form.get("code") ?? "");
        codes.delete(form.get("code") ?? "");
        const verifier = createHash("sha256")
          .update(form.get("code_verifier") ?? "")
          .digest("base64url");
        const bad = (error: string, error_description: string) => Response.json({ error, error_description });
        if (form.get("client_id") !== app.clientId || form.get("client_secret") !== app.clientSecret)
          return bad("incorrect_client_credentials", "The client_id and/or client_secret passed are incorrect.");
        if (!grant || grant.redirectUri !== form.get("redirect_uri") || grant.challenge !== verifier)
          return bad("bad_verification_code", "The code passed is incorrect or expired.");
        const token = `gho_${crypto.randomUUID().replaceAll("-", "")}`;
        tokens.set(token, grant.user);
        return Response.json({ access_token: token, token_type: "bearer", scope: "read:user,user:email" });
      }
      const user = tokens.get((request.headers.get("authorization") ?? "").replace(/^Bearer /, ""));
      if (url.pathname.startsWith("/api/v3/") && !user) return Response.json({ message: "Bad credentials" }, { status: 401 });
      if (url.pathname === "/api/v3/user" && user) return Response.json({ id: user.id, login: user.login, name: user.name, email: user.email, avatar_url: "" });
      if (url.pathname === "/api/v3/user/emails" && user) return Response.json(user.emails);
      return new Response("not found", { status: 404 });
    },
  });
  const url = `http://127.0.0.1:${server.port}`;
  return { url, port: server.port as number, state, stop: () => server.stop(true) };
}
