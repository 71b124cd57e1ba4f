import { type ParsedMail, simpleParser } from "mailparser";
import { SMTPServer, type SMTPServerSession } from "smtp-server";
import { waitFor as poll } from "./wait.ts";

/** One message the server accepted, parsed by mailparser. `to` and `envelopeFrom` are the SMTP envelope's. */
export type Received = {
  to: string[];
  /** The From header as written (`Cairn <cairn@example.org>`). */
  from: string;
  envelopeFrom: string;
  subject: string;
  text: string;
  html: string;
  headers: Map<string, unknown>;
  /** The whole message as it came over the wire. */
  raw: string;
  /** Whether the session ran over TLS (implicit or STARTTLS). */
  secure: boolean;
};

/**
 * How the server misbehaves: at a stage, refuse with an SMTP reply `code` (421, 451, 550...) or
 * drop the connection without a word; the first `times` tries (all, when unset).
 */
export type Refusal = { at: "connect" | "rcpt" | "data"; code?: number; drop?: boolean; times?: number };

export type SmtpOptions = {
  /** Listen here (a port the app was told before the server ran); a free one otherwise. */
  port?: number;
  /** Certificate and key (PEM): STARTTLS is offered with them, or implicit TLS with `implicitTls`. Without: no STARTTLS at all. */
  tls?: { key: string; cert: string };
  implicitTls?: boolean;
  refuse?: Refusal;
  /** Login the server demands; none when unset. */
  auth?: { user: string; pass: string };
};

export type TestSmtp = Awaited<ReturnType<typeof startSmtp>>;

type SmtpError = Error & { responseCode?: number };
const smtpError = (code: number, message: string): SmtpError => Object.assign(new Error(message), { responseCode: code });

function toReceived(parsed: ParsedMail, session: SMTPServerSession, raw: string): Received {
  const from = session.envelope.mailFrom;
  return {
    to: session.envelope.rcptTo.map((r) => r.address),
    from: parsed.from?.text ?? "",
    envelopeFrom: from ? from.address : "",
    subject: parsed.subject ?? "",
    text: parsed.text ?? "",
    html: typeof parsed.html === "string" ? parsed.html : "",
    headers: parsed.headers as Map<string, unknown>,
    raw,
    secure: session.secure,
  };
}

/**
 * A real SMTP server (nodemailer's smtp-server) on loopback for the tests: it keeps every message
 * it accepts, parsed (mailparser), and can refuse or drop tries on purpose. Start the app with
 * `CAIRN_SMTP_URL: smtp.url` and a `CAIRN_SMTP_FROM`.
 */
export async function startSmtp(options: SmtpOptions = {}) {
  const messages: Received[] = [];
  let refusal: Refusal | null = options.refuse ?? null;
  let refused = 0;
  /** Tries that reached the stage of the refusal (or every connection, without one). */
  let connections = 0;
  const misbehave = (stage: Refusal["at"], session: SMTPServerSession): SmtpError | "dropped" | null => {
    if (!refusal || refusal.at !== stage || (refusal.times !== undefined && refused >= refusal.times)) return null;
    refused++;
    if (refusal.drop) {
      for (const connection of server.connections) if (connection.session?.id === session.id) connection._socket.destroy();
      return "dropped";
    }
    const code = refusal.code ?? 451;
    return smtpError(code, code >= 500 ? "Refused for good by the test server" : "Try again later (the test server says so)");
  };
  const server = new SMTPServer({
    secure: options.implicitTls ?? false,
    ...(options.tls ? { key: options.tls.key, cert: options.tls.cert } : {}),
    // Without a certificate of the test's own, smtp-server would offer STARTTLS with its built-in one.
    disabledCommands: options.tls ? [] : ["STARTTLS"],
    authOptional: !options.auth,
    allowInsecureAuth: false,
    logger: false,
    closeTimeout: 500,
    onAuth(auth, _session, callback) {
      const ok = options.auth && auth.username === options.auth.user && auth.password === options.auth.pass;
      callback(ok ? null : smtpError(535, "Authentication failed"), ok ? { user: auth.username } : undefined);
    },
    onConnect(session, callback) {
      connections++;
      const wrong = misbehave("connect", session);
      if (wrong !== "dropped") callback(wrong);
    },
    onRcptTo(_address, session, callback) {
      const wrong = misbehave("rcpt", session);
      if (wrong !== "dropped") callback(wrong);
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      stream.on("end", () => {
        const wrong = misbehave("data", session);
        if (wrong === "dropped") return;
        if (wrong) return callback(wrong);
        const raw = Buffer.concat(chunks).toString("utf8");
        simpleParser(raw).then(
          (parsed) => {
            messages.push(toReceived(parsed, session, raw));
            callback();
          },
          (e: Error) => callback(e),
        );
      });
    },
  });
  server.on("error", () => {
    // A client that went away mid-session (the app killed on purpose): nothing for the test to see.
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, "127.0.0.1", () => resolve());
  });
  const port = (server.server.address() as { port: number }).port;
  const credentials = options.auth ? `${encodeURIComponent(options.auth.user)}:${encodeURIComponent(options.auth.pass)}@` : "";
  return {
    port,
    url: `${options.implicitTls ? "smtps" : "smtp"}://${credentials}127.0.0.1:${port}`,
    messages,
    /** How many connections it took, and how many tries it refused or dropped so far. */
    get connections() {
      return connections;
    },
    get refused() {
      return refused;
    },
    /** Changes the misbehaviour from now on (null: accept everything); the count of refusals starts again. */
    refuse(next: Refusal | null) {
      refusal = next;
      refused = 0;
    },
    /** The first message (received so far or later) that `pred` accepts. */
    waitFor(pred: (m: Received) => boolean = () => true, timeoutMs = 10_000): Promise<Received> {
      return poll(() => messages.find(pred), { what: "a message at the test SMTP server", timeoutMs, intervalMs: 10 });
    },
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
