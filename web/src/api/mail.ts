import type { Ok } from "../../../src/contract/api/common.ts";
import type { MailStatus } from "../../../src/contract/api/mail.ts";
import { request } from "./http.ts";

export type { MailStatus, OutboxEntry } from "../../../src/contract/api/mail.ts";

/** Client of the admin page's Mail section, `/api/oauth/admin/mail` (admins only). */
export const mailApi = {
  /** How mail is set up (or what is missing) and the latest outbox entries. */
  status: async () => (await request<MailStatus>("GET", "/api/oauth/admin/mail")).data,
  /** Queues a test message to `to`; it goes out within a second or so, and shows in the list. */
  sendTest: async (to: string) => (await request<Ok>("POST", "/api/oauth/admin/mail/test", { to })).data,
};
