import { describe, expect, it } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { ConfigError, loadConfig } from "../../src/config/config.ts";
import { tempDir } from "../helpers/temp.ts";

// Issue 44 item 1: the mail server from the environment (README, Configuration): either
// CAIRN_SMTP_URL or CAIRN_SMTP_HOST and its companions, with CAIRN_SMTP_FROM; a half-done or bad
// setup stops the start with one line naming the variable, and never repeats the password.
const FROM = "Cairn <cairn@example.org>";
const smtpOf = (env: Record<string, string>, cwd = "/") => loadConfig(env, cwd).smtp;
const errorOf = (env: Record<string, string>): string => {
  try {
    loadConfig(env, "/");
  } catch (e) {
    if (e instanceof ConfigError) return e.message;
    throw e;
  }
  throw new Error("accepted");
};

describe("issue 44: SMTP configuration", () => {
  it("is off without any CAIRN_SMTP_ variable", () => {
    expect(smtpOf({})).toBeNull();
  });

  it("reads smtp:// as STARTTLS on 587, required for a server on another machine", () => {
    const smtp = smtpOf({ CAIRN_SMTP_URL: "smtp://mailer:pa%3Ass%40word@smtp.example.org", CAIRN_SMTP_FROM: FROM });
    expect({ ...smtp }).toEqual({
      host: "smtp.example.org",
      port: 587,
      secure: false,
      requireTls: true,
      user: "mailer",
      from: { name: "Cairn", address: "cairn@example.org" },
      ca: null,
      caFile: null,
    });
    expect(smtp?.password).toBe("pa:ss@word");
  });

  it("reads smtps:// as implicit TLS on 465, and leaves STARTTLS optional on loopback only", () => {
    expect(smtpOf({ CAIRN_SMTP_URL: "smtps://smtp.example.org", CAIRN_SMTP_FROM: FROM })).toMatchObject({
      port: 465,
      secure: true,
      requireTls: false,
      user: null,
    });
    for (const host of ["127.0.0.1", "localhost", "[::1]"])
      expect(smtpOf({ CAIRN_SMTP_URL: `smtp://${host}:2525`, CAIRN_SMTP_FROM: FROM })).toMatchObject({ port: 2525, requireTls: false });
    expect(smtpOf({ CAIRN_SMTP_URL: "smtp://[::1]:25", CAIRN_SMTP_FROM: FROM })?.host).toBe("::1");
    expect(smtpOf({ CAIRN_SMTP_URL: "smtp://10.0.0.5:25", CAIRN_SMTP_FROM: FROM })?.requireTls).toBe(true);
  });

  it("reads the separate variables", () => {
    const smtp = smtpOf({
      CAIRN_SMTP_HOST: "mail.example.org",
      CAIRN_SMTP_PORT: "465",
      CAIRN_SMTP_USER: "cairn",
      CAIRN_SMTP_PASSWORD: " spaced secret ",
      CAIRN_SMTP_FROM: "cairn@example.org",
    });
    expect(smtp).toMatchObject({
      host: "mail.example.org",
      port: 465,
      secure: true,
      requireTls: false,
      user: "cairn",
      from: { name: "", address: "cairn@example.org" },
    });
    expect(smtp?.password).toBe(" spaced secret ");
    expect(smtpOf({ CAIRN_SMTP_HOST: "mail.example.org", CAIRN_SMTP_FROM: FROM })).toMatchObject({ port: 587, secure: false, requireTls: true });
    expect(smtpOf({ CAIRN_SMTP_HOST: "mail.example.org", CAIRN_SMTP_PORT: "2465", CAIRN_SMTP_SECURE: "true", CAIRN_SMTP_FROM: FROM })).toMatchObject({
      port: 2465,
      secure: true,
    });
  });

  it("reads the CA file CAIRN_SMTP_CA names, relative to the working folder", () => {
    const dir = tempDir();
    writeFileSync(join(dir, "ca.pem"), "-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n");
    const smtp = smtpOf({ CAIRN_SMTP_URL: "smtp://smtp.example.org", CAIRN_SMTP_FROM: FROM, CAIRN_SMTP_CA: "ca.pem" }, dir);
    expect(smtp?.caFile).toBe(join(dir, "ca.pem"));
    expect(smtp?.ca).toContain("BEGIN CERTIFICATE");
    writeFileSync(join(dir, "key.pem"), "-----BEGIN PRIVATE KEY-----\n");
    expect(() => smtpOf({ CAIRN_SMTP_URL: "smtp://smtp.example.org", CAIRN_SMTP_FROM: FROM, CAIRN_SMTP_CA: "key.pem" }, dir)).toThrow(
      `CAIRN_SMTP_CA: ${join(dir, "key.pem")} holds no PEM certificate (-----BEGIN CERTIFICATE-----)`,
    );
  });

  const refused: [Record<string, string>, string][] = [
    [{ CAIRN_SMTP_FROM: FROM }, "CAIRN_SMTP_FROM: is set, but no mail server is: set CAIRN_SMTP_URL (or CAIRN_SMTP_HOST) too, or remove it"],
    [{ CAIRN_SMTP_CA: "/ca.pem" }, "CAIRN_SMTP_CA: is set, but no mail server is: set CAIRN_SMTP_URL (or CAIRN_SMTP_HOST) too, or remove it"],
    [{ CAIRN_SMTP_URL: "smtp://smtp.example.org" }, "CAIRN_SMTP_FROM: is required with a mail server: the sender, like Cairn <cairn@example.org>"],
    [
      { CAIRN_SMTP_URL: "smtp://a.example", CAIRN_SMTP_HOST: "b.example", CAIRN_SMTP_FROM: FROM },
      "CAIRN_SMTP_HOST: set either CAIRN_SMTP_URL or CAIRN_SMTP_HOST, not both",
    ],
    [
      { CAIRN_SMTP_URL: "smtp://a.example", CAIRN_SMTP_PASSWORD: "x", CAIRN_SMTP_FROM: FROM },
      "CAIRN_SMTP_PASSWORD: cannot be combined with CAIRN_SMTP_URL: put everything in the URL, or use CAIRN_SMTP_HOST",
    ],
    [
      { CAIRN_SMTP_URL: "https://u:hunter2@a.example", CAIRN_SMTP_FROM: FROM },
      "CAIRN_SMTP_URL: must look like smtp://user:password@host:587 (STARTTLS) or smtps://user:password@host:465 (TLS); the scheme is https:",
    ],
    [
      { CAIRN_SMTP_URL: "smtp://u:hunter2@a.example/path", CAIRN_SMTP_FROM: FROM },
      "CAIRN_SMTP_URL: must look like smtp://user:password@host:587 (STARTTLS) or smtps://user:password@host:465 (TLS)",
    ],
    [{ CAIRN_SMTP_URL: "smtp://u@a.example", CAIRN_SMTP_FROM: FROM }, "CAIRN_SMTP_URL: give both a user and a password, or neither"],
    [
      { CAIRN_SMTP_URL: "smtp://u:%E0%A4%A@a.example", CAIRN_SMTP_FROM: FROM },
      "CAIRN_SMTP_URL: the user or password is not valid percent-encoding (write % as %25)",
    ],
    [
      { CAIRN_SMTP_HOST: "a.example", CAIRN_SMTP_USER: "u", CAIRN_SMTP_FROM: FROM },
      "CAIRN_SMTP_PASSWORD: set CAIRN_SMTP_USER and CAIRN_SMTP_PASSWORD together",
    ],
    [{ CAIRN_SMTP_HOST: "a.example", CAIRN_SMTP_PORT: "99999", CAIRN_SMTP_FROM: FROM }, "CAIRN_SMTP_PORT: must be between 1 and 65535, got 99999"],
    [{ CAIRN_SMTP_HOST: "a.example", CAIRN_SMTP_SECURE: "yes", CAIRN_SMTP_FROM: FROM }, 'CAIRN_SMTP_SECURE: must be true or false, got "yes"'],
    [
      { CAIRN_SMTP_HOST: "a.example", CAIRN_SMTP_FROM: "Cairn" },
      'CAIRN_SMTP_FROM: must be an address or Name <address>, like Cairn <cairn@example.org>; got "Cairn"',
    ],
    [
      { CAIRN_SMTP_HOST: "a.example", CAIRN_SMTP_FROM: "a@example.org, b@example.org" },
      'CAIRN_SMTP_FROM: must be an address or Name <address>, like Cairn <cairn@example.org>; got "a@example.org, b@example.org"',
    ],
    [
      { CAIRN_SMTP_URL: "smtp://a.example", CAIRN_SMTP_FROM: FROM, CAIRN_SMTP_CA: "/nonexistent/ca.pem" },
      "CAIRN_SMTP_CA: cannot read /nonexistent/ca.pem: ENOENT",
    ],
  ];
  for (const [env, message] of refused)
    it(`stops the start: ${message.split(":")[0]} (${Object.keys(env).join(", ")})`, () => {
      const error = errorOf(env);
      expect(error).toBe(message);
      expect(error).not.toContain("hunter2");
    });
});
