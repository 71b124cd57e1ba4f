import { describe, expect, it } from "bun:test";
import { LEASE_MS } from "../../../src/mail/sender.ts";
import { claimNext } from "../../../src/mail/outbox.repo.ts";
import { mailOutbox } from "../../../src/mail/outbox.table.ts";
import type { TestApp } from "../../helpers/app.ts";
import { pgSkipReason } from "../../helpers/postgres.ts";
import { twoInstances } from "./two-contexts.fixture.ts";

const NOW = 1_700_000_000_000;
const ROWS = 40;

/** Takes rows until none is due, as a sender drains the outbox: the ids it took. */
async function drain(app: TestApp): Promise<string[]> {
  const taken: string[] = [];
  for (let row = await claimNext(app.ctx.db, NOW, LEASE_MS); row; row = await claimNext(app.ctx.db, NOW, LEASE_MS)) taken.push(row.id);
  return taken;
}

describe.skipIf(pgSkipReason !== null)("issue 46: mail senders of several instances on one PostgreSQL database", () => {
  const apps = twoInstances();

  it("never take one message twice: each due row goes to exactly one of the senders draining at once", async () => {
    const ids = Array.from({ length: ROWS }, (_, i) => `mail-${String(i).padStart(2, "0")}`);
    await apps.a.ctx.db
      .insert(mailOutbox)
      .values(
        ids.map((id, i) => ({
          id,
          kind: "test" as const,
          toAddress: `p${i}@example.com`,
          subject: "s",
          textBody: "t",
          htmlBody: "h",
          createdAt: NOW - 1000,
          attempts: 0,
          nextAttemptAt: NOW - 1000 + i,
          state: "pending" as const,
        })),
      )
      .run();
    const taken = (await Promise.all([drain(apps.a), drain(apps.b), drain(apps.a), drain(apps.b)])).flat();
    expect(taken.sort()).toEqual(ids);
    expect(await claimNext(apps.b.ctx.db, NOW, LEASE_MS)).toBeNull();
  });
});
