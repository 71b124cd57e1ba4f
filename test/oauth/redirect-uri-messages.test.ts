import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import fc from "fast-check";
import { checkRedirectUri, type RedirectFault, redirectFaultText } from "../../src/contract/redirect-uri-rules.ts";
import { redirectEntryProblem } from "../../src/oauth/protocol/redirect-uri.ts";
import { checkAppForm, errorsFromServer, NEW_APP } from "../../web/src/pages/apps/app-form-state.ts";
import { startApp, type TestApp } from "../helpers/app.ts";
import { signUp, type SignedUp } from "../helpers/identity.ts";

/** One address per reason, and the sentence people read for it (named after the app). */
const CASES: [RedirectFault, string, string][] = [
  [
    "not_url",
    "callback",
    "Grafana's address “callback” is not a full web address: write it with https:// and the host name, such as https://app.example.com/callback.",
  ],
  [
    "scheme",
    "myapp://callback",
    "Grafana's address “myapp://callback” must start with https://, or http:// on this machine (localhost); other kinds of address are not accepted.",
  ],
  [
    "http_not_loopback",
    "http://grafana.lan/login",
    "Grafana's address “http://grafana.lan/login” must start with https://, or be on this machine (localhost).",
  ],
  [
    "userinfo",
    "https://u:p@grafana.example.com/cb",
    "Grafana's address “https://u:p@grafana.example.com/cb” must not contain a user name or password (the part before @).",
  ],
  [
    "fragment",
    "https://grafana.example.com/cb#x",
    "Grafana's address “https://grafana.example.com/cb#x” must not contain a # part: remove the # and everything after it.",
  ],
  ["too_long", `https://grafana.example.com/${"a".repeat(2048)}`, "Grafana's address is longer than 2048 characters."],
];

describe("issue 42: one sentence for people per reason a redirect URI is refused", () => {
  for (const [fault, uri, text] of CASES)
    it(`${fault}: ${text.slice(0, 60)}…`, () => {
      expect(checkRedirectUri(uri)).toEqual({ href: null, fault });
      expect(redirectEntryProblem({ uri, match: "equals" }, "Grafana")).toBe(text);
    });

  it("names the app as it is called, and says 'The address' when no name is known", () => {
    expect(redirectFaultText("http_not_loopback", "http://x.lan/", { app: "Jenkins" })).toStartWith("Jenkins' address “http://x.lan/”");
    expect(redirectFaultText("http_not_loopback", "http://x.lan/")).toStartWith("The address “http://x.lan/”");
    expect(redirectFaultText("fragment", "https://a.example/#", { app: "Immich", role: "post_logout" })).toStartWith(
      "Immich's address after sign-out “https://a.example/#”",
    );
  });

  it("wildcard and regex rules: length, and a pattern that does not compile", () => {
    expect(redirectEntryProblem({ uri: "", match: "wildcard" }, "Grafana")).toBe("Grafana's wildcard pattern must be 1 to 1024 characters long.");
    expect(redirectEntryProblem({ uri: "x".repeat(1025), match: "regex" }, null)).toBe("The regular expression must be 1 to 1024 characters long.");
    expect(redirectEntryProblem({ uri: "https://(unclosed", match: "regex" }, "Grafana")).toStartWith(
      "Grafana's regular expression “https://(unclosed” is not valid: ",
    );
    expect(redirectEntryProblem({ uri: "https://*.example.com/cb", match: "wildcard" }, "Grafana")).toBeNull();
  });

  it("refuses exactly what it names a fault for: an accepted address has no fault, a refused one always one", () => {
    const any = fc.oneof(fc.webUrl({ withFragments: true, withQueryParameters: true }), fc.string({ maxLength: 40 }));
    fc.assert(
      fc.property(any, (uri) => {
        const { href, fault } = checkRedirectUri(uri);
        expect((href === null) !== (fault === null)).toBe(true);
        if (fault) expect(redirectFaultText(fault, uri)).toMatch(/^The address/);
      }),
      { numRuns: 300 },
    );
  });

  it("the app form says the same before sending, and puts the server's sentence beside its row", () => {
    const [, uri, text] = CASES[2] as [RedirectFault, string, string];
    const errors = checkAppForm({
      ...NEW_APP,
      name: "Grafana",
      redirect_uris: [
        { uri: "https://ok.example/cb", match: "equals" },
        { uri, match: "equals" },
      ],
    });
    expect(errors.rows).toEqual({ 1: text });
    expect(
      errorsFromServer(`redirect_uris: ${text}`, [
        { uri: "https://ok.example/cb", match: "equals" },
        { uri, match: "equals" },
      ]),
    ).toEqual({ rows: { 1: text } });
    const logout = checkAppForm({ ...NEW_APP, name: "Grafana", redirect_uris: [], post_logout_redirect_uris: ["http://grafana.lan/bye"] });
    expect(logout.post_logout_redirect_uris).toBe(
      "Grafana's address after sign-out “http://grafana.lan/bye” must start with https://, or be on this machine (localhost).",
    );
  });
});

describe("issue 42: the APIs answer those sentences, under the codes the RFCs fix", () => {
  let app: TestApp;
  let owner: SignedUp;
  beforeAll(async () => {
    app = await startApp();
    owner = await signUp(app, "owner");
  });
  afterAll(() => app.stop());

  it("the dashboard: invalid_request, the sentence after the field it names", async () => {
    // An address over 2048 characters is refused by the body's schema already, before these checks.
    for (const [, uri, text] of CASES.filter(([fault]) => fault !== "too_long")) {
      const res = await owner.browser.json("POST", "/api/oauth/me/clients", { name: "Grafana", redirect_uris: [{ uri, match: "equals" }] });
      expect({ uri, status: res.status, data: res.data }).toEqual({
        uri,
        status: 400,
        data: { error: "invalid_request", error_description: `redirect_uris: ${text}` },
      });
    }
    const bye = await owner.browser.json("POST", "/api/oauth/me/clients", {
      name: "Grafana",
      redirect_uris: [],
      post_logout_redirect_uris: ["https://g.example/#"],
    });
    expect(bye.data.error_description).toBe(
      "post_logout_redirect_uris: Grafana's address after sign-out “https://g.example/#” must not contain a # part: remove the # and everything after it.",
    );
  });

  it("the catalog: the app named as the person called it", async () => {
    const res = await owner.browser.json("POST", "/api/oauth/me/integrations/grafana", { name: "Our Grafana", base_url: "http://grafana.lan" });
    expect({ status: res.status, error: res.data.error }).toEqual({ status: 400, error: "invalid_request" });
    expect(res.data.error_description).toBe(
      "redirect_uris: Our Grafana's address “http://grafana.lan/login/generic_oauth” must start with https://, or be on this machine (localhost).",
    );
  });

  it("dynamic registration (RFC 7591 section 3.2.2): still invalid_redirect_uri, described for people", async () => {
    const res = await fetch(`${app.url}/api/oauth/register`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${owner.token}` },
      body: JSON.stringify({ client_name: "Grafana", redirect_uris: ["http://grafana.lan/login"] }),
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ error: "invalid_redirect_uri", error_description: `redirect_uris: ${(CASES[2] as string[])[2]}` });
  });
});
