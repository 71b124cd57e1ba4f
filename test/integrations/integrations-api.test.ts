import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import { startApp, type TestApp } from "../helpers/app.ts";
import { type SignedUp, signUp } from "../helpers/identity.ts";
import { registerIntegration } from "../helpers/integrations.ts";

describe("the integration catalog's API", () => {
  let app: TestApp;
  let alice: SignedUp;
  let bob: SignedUp;

  beforeAll(async () => {
    app = await startApp({ host: "localhost" });
    alice = await signUp(app, "alice", { name: "Alice Adams" });
    bob = await signUp(app, "bob");
  });
  afterAll(async () => {
    await app?.stop();
  });

  it("lists every entry, generic ones last", async () => {
    const res = await fetch(`${app.url}/api/integrations`);
    expect(res.status).toBe(200);
    const list = (await res.json()).integrations as { id: string; category: string; snippet: { text: string } }[];
    expect(list.map((e) => e.id)).toContain("grafana");
    expect(list.at(-1)?.category).toBe("Generic");
    expect(list.find((e) => e.id === "grafana")?.snippet.text).toContain("{{client_id}}");
  });

  it("registers Grafana from its entry: exact redirect URI, RS256, its method and scopes; the snippet has the real values", async () => {
    const res = await alice.browser.json("POST", "/api/oauth/me/integrations/grafana", { base_url: "https://grafana.example.com/" });
    expect(res.status).toBe(201);
    expect(res.headers.get("cache-control")).toBe("no-store");
    const app_ = res.data;
    expect(app_.name).toBe("Grafana");
    expect(app_.integration).toBe("grafana");
    expect(app_.redirect_uris).toEqual([{ uri: "https://grafana.example.com/login/generic_oauth", match: "equals" }]);
    expect(app_.post_logout_redirect_uris).toEqual(["https://grafana.example.com/login"]);
    expect(app_.id_token_signed_response_alg).toBe("RS256");
    expect(app_.token_endpoint_auth_method).toBe("client_secret_basic");
    expect(app_.public).toBe(false);
    expect(app_.client_secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const { text, values } = app_.setup;
    expect(text).toContain(`client_id = ${app_.client_id}\n`);
    expect(text).toContain(`client_secret = ${app_.client_secret}\n`);
    expect(text).toContain(`auth_url = ${app.url}/api/oauth/authorize\n`);
    expect(text).toContain("root_url = https://grafana.example.com\n");
    expect(text).not.toMatch(/\{\{/);
    expect(values.issuer).toBe(app.url);

    // Later, the setup is shown again without the secret, which is kept only as a hash.
    const again = await alice.browser.json("GET", `/api/oauth/me/clients/${app_.client_id}/setup`);
    expect(again.status).toBe(200);
    expect(again.data.text).not.toContain(app_.client_secret);
    expect(again.data.text).toContain("client_secret = <client secret");
    expect(again.data.text).toContain("root_url = https://grafana.example.com\n");
    // Only the owner sees it.
    expect((await bob.browser.json("GET", `/api/oauth/me/clients/${app_.client_id}/setup`)).status).toBe(404);
  });

  it("refuses a bad address, an unknown entry and a missing redirect URI, registering nothing", async () => {
    const before = (await alice.browser.json("GET", "/api/oauth/me/clients")).data.clients.length;
    for (const [id, body, status, error] of [
      ["grafana", { base_url: "grafana.example.com" }, 400, "invalid_request"],
      ["grafana", { base_url: "https://grafana.example.com/?x=1" }, 400, "invalid_request"],
      ["grafana", { base_url: "ftp://grafana.example.com" }, 400, "invalid_request"],
      ["grafana", { base_url: "http://grafana.example.com" }, 400, "invalid_request"],
      ["grafana", {}, 400, "invalid_request"],
      ["generic-oidc", { base_url: "https://x.example.com" }, 400, "invalid_request"],
      ["generic-oidc", { redirect_uri: "https://x.example.com/cb*" }, 400, "invalid_request"],
      ["no-such-app", { base_url: "https://x.example.com" }, 404, "not_found"],
    ] as const) {
      const res = await alice.browser.json("POST", `/api/oauth/me/integrations/${id}`, body);
      expect([id, body, res.status, res.data.error]).toEqual([id, body, status, error]);
      expect(typeof res.data.error_description).toBe("string");
    }
    expect((await alice.browser.json("GET", "/api/oauth/me/clients")).data.clients.length).toBe(before);
  });

  it("serves a classic JWKS without the post-quantum key, while discovery's JWKS keeps both", async () => {
    const full = await (await fetch(`${app.url}/.well-known/jwks.json`)).json();
    const classic = await (await fetch(`${app.url}/api/oauth/jwks/classic`)).json();
    expect(full.keys.map((k: { kty: string }) => k.kty).sort()).toEqual(["AKP", "RSA"]);
    expect(classic.keys.map((k: { kty: string }) => k.kty)).toEqual(["RSA"]);
    expect(classic.keys[0]).toEqual(full.keys.find((k: { kty: string }) => k.kty === "RSA"));
    const discovery = await (await fetch(`${app.url}/.well-known/openid-configuration`)).json();
    expect(discovery.jwks_uri).toBe(`${app.url}/.well-known/jwks.json`);
    // The Authlib entry is pointed at the classic set.
    const authlib = await registerIntegration(alice, "python-authlib", { base_url: "https://notes.example.com" });
    expect(authlib.values.jwks_uri).toBe(`${app.url}/api/oauth/jwks/classic`);
    expect(authlib.text).toContain(`jwks_uri="${app.url}/api/oauth/jwks/classic"`);
  });

  describe("forward-auth entries (nginx, Caddy, Traefik)", () => {
    const snippet = (who: SignedUp, body: unknown) => who.browser.json("POST", "/api/oauth/admin/forward-auth/snippet", body);

    it("are listed with their proxy, and register no app", async () => {
      const list = (await (await fetch(`${app.url}/api/integrations`)).json()).integrations as { id: string; kind: string; proxy: string | null }[];
      expect(list.filter((e) => e.kind === "forward_auth").map((e) => [e.id, e.proxy])).toEqual([
        ["forward-auth-caddy", "caddy"],
        ["forward-auth-nginx", "nginx"],
        ["forward-auth-traefik", "traefik"],
      ]);
      expect(list.find((e) => e.id === "grafana")).toMatchObject({ kind: "oidc", proxy: null });
      const before = (await alice.browser.json("GET", "/api/oauth/me/clients")).data.clients.length;
      const res = await alice.browser.json("POST", "/api/oauth/me/integrations/forward-auth-caddy", { base_url: "https://media.example.com" });
      expect([res.status, res.data.error]).toEqual([400, "invalid_request"]);
      expect(res.data.error_description).toContain("registers no app");
      expect((await alice.browser.json("GET", "/api/oauth/me/clients")).data.clients.length).toBe(before);
    });

    it("write an administrator the proxy's configuration for one app, pointed at this Cairn", async () => {
      const caddy = await snippet(alice, { kind: "caddy", app_url: "https://media.home.example", upstream: "http://127.0.0.1:8096" });
      expect(caddy.status).toBe(200);
      expect(caddy.data.language).toBe("caddyfile");
      expect(caddy.data.text).toContain("media.home.example {\n");
      expect(caddy.data.text).toContain(`forward_auth ${new URL(app.url).host} {\n`);
      const nginx = await snippet(alice, { kind: "nginx", app_url: "http://media.home.example:8080", upstream: "http://127.0.0.1:8096" });
      expect(nginx.data.text).toContain(`proxy_pass ${app.url}/api/authz/auth-request;\n`);
      expect(nginx.data.text).toContain("listen 8080;\n");
      const traefik = await snippet(alice, { kind: "traefik", app_url: "https://media.home.example", upstream: "http://127.0.0.1:8096" });
      expect(traefik.data.text).toContain(`address: "${app.url}/api/authz/forward-auth"`);
    });

    it("refuse anyone but an administrator, and bad addresses or kinds with a clear error", async () => {
      const ask = { kind: "nginx", app_url: "https://media.home.example", upstream: "http://127.0.0.1:8096" };
      expect((await snippet(bob, ask)).status).toBe(403);
      expect((await app.fetch("/api/oauth/admin/forward-auth/snippet", { method: "POST", body: JSON.stringify(ask) })).status).toBe(401);
      for (const [body, says] of [
        [{ ...ask, app_url: "https://media.home.example/jellyfin" }, "app_url is a scheme, a host and an optional port only"],
        [{ ...ask, app_url: "media.home.example" }, "app_url must be an http:// or https:// address"],
        [{ ...ask, upstream: "http://127.0.0.1:8096;evil" }, "upstream"],
        [{ ...ask, kind: "apache" }, ""],
        [{ kind: "nginx" }, ""],
      ] as const) {
        const res = await snippet(alice, body);
        expect([res.status, res.data.error]).toEqual([400, "invalid_request"]);
        expect(res.data.error_description).toContain(says);
      }
    });
  });

  describe("test login", () => {
    it("signs the owner in as the app would and reports what it sees, leaving no consent or token behind", async () => {
      const grafana = await registerIntegration(alice, "grafana", { base_url: "http://127.0.0.1:3001" });
      const res = await alice.browser.json("POST", `/api/oauth/me/clients/${grafana.clientId}/test-login`, { client_secret: grafana.secret });
      expect(res.status).toBe(200);
      const report = res.data;
      expect(report.steps.map((s: { step: string; ok: boolean }) => [s.step, s.ok])).toEqual([
        ["Authorization request", true],
        ["Sign-in and consent", true],
        ["Token exchange", true],
        ["ID token", true],
        ["Userinfo", true],
        ["Refresh", true],
      ]);
      expect(report.ok).toBe(true);
      expect(report.id_token.alg).toBe("RS256");
      expect(report.id_token.claims.aud).toBe(grafana.clientId);
      expect(report.userinfo.preferred_username).toBe("alice");
      expect(report.claims_used).toContainEqual({ name: "preferred_username", value: "alice" });
      expect(report.claims_used).toContainEqual({ name: "name", value: "Alice Adams" });
      // The consent was only for the test.
      const consents = (await alice.browser.json("GET", "/api/oauth/me/consents")).data.consents;
      expect(consents.map((c: { client_id: string }) => c.client_id)).not.toContain(grafana.clientId);
    });

    it("reports a wrong secret as the app would meet it, at the token exchange", async () => {
      const grafana = await registerIntegration(alice, "grafana", { base_url: "http://127.0.0.1:3002" });
      const report = (await alice.browser.json("POST", `/api/oauth/me/clients/${grafana.clientId}/test-login`, { client_secret: "wrong" })).data;
      expect(report.ok).toBe(false);
      const failed = report.steps.find((s: { ok: boolean }) => !s.ok);
      expect(failed.step).toBe("Token exchange");
      expect(failed.detail).toContain("invalid_client");
    });

    it("catches an app switched to an algorithm its JWKS cannot verify", async () => {
      // Authlib's entry points at the classic set; switched to ML-DSA-65, its ID tokens have no key there.
      const authlib = await registerIntegration(alice, "python-authlib", { base_url: "http://127.0.0.1:3003" });
      await alice.browser.json("PATCH", `/api/oauth/me/clients/${authlib.clientId}`, { id_token_signed_response_alg: "ML-DSA-65" });
      const report = (await alice.browser.json("POST", `/api/oauth/me/clients/${authlib.clientId}/test-login`, { client_secret: authlib.secret })).data;
      expect(report.ok).toBe(false);
      const failed = report.steps.find((s: { ok: boolean }) => !s.ok);
      expect(failed.step).toBe("ID token");
      expect(failed.detail).toContain(`not verified with ${app.url}/api/oauth/jwks/classic`);
    });

    it("tests a public browser app without a secret, and refuses a confidential one without it", async () => {
      const spa = await registerIntegration(alice, "oidc-client-ts", { base_url: "http://127.0.0.1:3004" });
      expect(spa.secret).toBeUndefined();
      const report = (await alice.browser.json("POST", `/api/oauth/me/clients/${spa.clientId}/test-login`, {})).data;
      expect(report.ok).toBe(true);
      expect(report.id_token.alg).toBe("ML-DSA-65");

      const grafana = await registerIntegration(alice, "grafana", { base_url: "http://127.0.0.1:3005" });
      const res = await alice.browser.json("POST", `/api/oauth/me/clients/${grafana.clientId}/test-login`, {});
      expect(res.status).toBe(400);
      expect(res.data.error_description).toContain("client_secret is required");
      // Someone else's app is not found.
      expect((await bob.browser.json("POST", `/api/oauth/me/clients/${grafana.clientId}/test-login`, {})).status).toBe(404);
    });
  });
});
