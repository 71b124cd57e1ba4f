import { rootCertificates } from "node:tls";
import nodemailer from "nodemailer";
import type { SmtpConfig } from "../config/config.ts";
import type { MailRow } from "./outbox.table.ts";

/** What one try came to: accepted, or why not and whether trying again could help. */
export type SendOutcome = { ok: true } | { ok: false; permanent: boolean; reason: string };

export type MailTransport = { send(row: MailRow): Promise<SendOutcome>; close(): void };

type SmtpError = Error & { code?: string; responseCode?: number; response?: string; command?: string };

const MAX_REASON = 500;
const CERTIFICATE = /certificate|self[- ]signed|unable to verify|CERT_/i;

/**
 * Why a try failed, in words for the admin page. RFC 5321 section 4.2.1: a 5yz reply to the
 * recipient or the message is permanent (an unknown mailbox stays unknown); a 4yz reply, a dropped
 * connection, a timeout, a TLS or login failure may pass (or be fixed by the operator), so they are retried.
 */
export function describeFailure(error: SmtpError, smtp: Pick<SmtpConfig, "host" | "port">): { permanent: boolean; reason: string } {
  const reply = error.response ? `: ${error.response}` : error.message ? `: ${error.message}` : "";
  const server = `${smtp.host}:${smtp.port}`;
  let reason: string;
  if (CERTIFICATE.test(error.message))
    reason = `the certificate of ${server} is not trusted (${error.message}); if it comes from a private CA, set CAIRN_SMTP_CA to that CA's PEM file`;
  else if (error.code === "ETLS" || /STARTTLS/i.test(error.message))
    reason = `${server} did not set up TLS${reply}; Cairn requires STARTTLS for a mail server on another machine (or use smtps://)`;
  else if (error.code === "EAUTH") reason = `${server} refused the login${reply}`;
  else if (error.code === "EENVELOPE") reason = `${server} refused the sender or recipient${reply}`;
  else if (error.code === "EMESSAGE") reason = `${server} refused the message${reply}`;
  else if (error.code === "ECONNECTION" || error.code === "ETIMEDOUT" || error.code === "ESOCKET" || error.code === "EDNS")
    reason = `could not talk to ${server}${reply}`;
  else reason = `${server} failed${reply}`;
  const permanent = (error.code === "EENVELOPE" || error.code === "EMESSAGE") && (error.responseCode ?? 0) >= 500;
  return { permanent, reason: reason.replace(/\s+/g, " ").slice(0, MAX_REASON) };
}

/**
 * A nodemailer SMTP transport for the configured server: implicit TLS (`smtps`), or STARTTLS,
 * required off the machine (config/smtp.ts); certificates checked against the system's CAs and
 * CAIRN_SMTP_CA's. A connection per message, timeouts short enough for the sender's lease.
 */
export function createMailTransport(smtp: SmtpConfig, issuer: string): MailTransport {
  const transport = nodemailer.createTransport({
    host: smtp.host,
    port: smtp.port,
    secure: smtp.secure,
    requireTLS: smtp.requireTls,
    auth: smtp.user && smtp.password ? { user: smtp.user, pass: smtp.password } : undefined,
    tls: { minVersion: "TLSv1.2", ...(smtp.ca ? { ca: [...rootCertificates, smtp.ca] } : {}) },
    // The EHLO name: this instance's public host, rather than whatever the container calls itself.
    name: new URL(issuer).hostname,
    connectionTimeout: 15_000,
    greetingTimeout: 15_000,
    socketTimeout: 60_000,
    // Messages are strings Cairn made: nothing in them may make nodemailer read a file or a URL.
    disableFileAccess: true,
    disableUrlAccess: true,
  });
  return {
    async send(row) {
      try {
        const info = await transport.sendMail({
          from: { name: smtp.from.name, address: smtp.from.address },
          // An address object, never a string nodemailer would parse as a list.
          to: { name: row.toName ?? "", address: row.toAddress },
          subject: row.subject,
          text: row.textBody,
          html: row.htmlBody,
          headers: row.headers ? (JSON.parse(row.headers) as Record<string, string>) : undefined,
        });
        if (info.rejected.length > 0) return { ok: false, permanent: true, reason: `${smtp.host}:${smtp.port} refused the recipient: ${info.response}` };
        return { ok: true };
      } catch (e) {
        return { ok: false, ...describeFailure(e as SmtpError, smtp) };
      }
    },
    close: () => transport.close(),
  };
}
