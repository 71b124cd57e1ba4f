import { describe, expect, it } from "bun:test";
import { registerApp } from "../../helpers/oauth.ts";
import { waitFor } from "../../helpers/wait.ts";
import { authorizeCode } from "../../oauth/oauth.fixtures.ts";
import { adminWithOpenRegistration, register, relyingPartyAt } from "./people.fixture.ts";
import * as client from "openid-client";
import { anyBalancer, anyBalancerName, anyBalancerSkipReason, twoInstancesTestbed } from "./two-instances.fixture.ts";

// Issue 46: every instance schedules every job, and each tick runs once (src/jobs/job-ticks.ts).
// The job watched is the one that runs every minute: back-channel logout retries. The test holds
// the lock on the job's row of job_ticks across a tick, so both instances are seen waiting to
// claim that same tick; once it lets go, one claim moves the row and the owed delivery is
// attempted once, by one instance. No schedule is shortened: the wait is for the next minute.
const skip = anyBalancerSkipReason;
if (skip) console.warn(`skipping the two-instance job test: ${skip}`);

const JOB = "back-channel logout";
/** A receiver no resolver knows (RFC 6761 .invalid): every attempt fails at once, and is retried by the job. */
const RECEIVER = "https://backchannel.invalid/logout";
/** The next minute's tick, and its claims: a bound on the wait. */
const TICK_PATIENCE_MS = 75_000;
const NOT_DELIVERED = '"msg":"back-channel logout not delivered"';

describe.skipIf(skip !== null)(`issue 46: a job across two instances behind ${anyBalancerName}`, () => {
  const bed = twoInstancesTestbed(anyBalancer as NonNullable<typeof anyBalancer>);

  it("both instances try to claim the minute's tick of the back-channel logout job; one claims it and the owed delivery is attempted once", async () => {
    const t = bed.current;
    const { a, b, sql } = t;
    const lock = await sql.reserve();
    await t.explained(async () => {
      try {
        // A logout owed to an app: alice signed in to it, then signed out; the first attempt fails at once.
        const admin = await adminWithOpenRegistration(t);
        const alice = await register(t, a, "alice");
        const app = await registerApp(admin.at(a), { backchannel_logout_uri: RECEIVER });
        const rp = { config: await relyingPartyAt(t, b, app.client_id, app.client_secret) };
        const { verifier, state, callback } = await authorizeCode(alice.at(a), rp, "openid");
        await client.authorizationCodeGrant(rp.config, callback, { pkceCodeVerifier: verifier, expectedState: state });
        expect((await alice.at(b).browser.json("POST", "/api/auth/logout")).status).toBe(200);
        const delivery = await waitFor(
          async () => (await sql`SELECT id, attempts::int AS attempts FROM backchannel_deliveries WHERE client_id = ${app.client_id} AND attempts > 0`)[0],
          { what: "the logout's first delivery attempt", timeoutMs: 10_000, intervalMs: 20 },
        );
        expect(delivery.attempts).toBe(1);
        const attemptLines = (n: number) =>
          [a, b].map((i) => i.server.log.filter((l) => l.includes(NOT_DELIVERED) && l.includes(`"attempt":${n},`) && l.includes(app.client_id)).length);
        await waitFor(() => attemptLines(1).reduce((x, y) => x + y) === 1, { what: "the first attempt's log line", timeoutMs: 10_000, intervalMs: 20 });

        // Hold the job's row of job_ticks, then make the delivery due at the next tick.
        await sql`INSERT INTO job_ticks (name, tick) VALUES (${JOB}, 0) ON CONFLICT (name) DO NOTHING`;
        await lock`BEGIN`;
        const before = Number((await lock`SELECT tick FROM job_ticks WHERE name = ${JOB} FOR UPDATE`)[0].tick);
        await sql`UPDATE backchannel_deliveries SET next_attempt_at = 0 WHERE id = ${delivery.id}`;
        const waiting = async () =>
          Number(
            (
              await sql`SELECT count(*) AS n FROM pg_stat_activity
              WHERE datname = current_database() AND wait_event_type = 'Lock' AND query LIKE '%job_ticks%'`
            )[0].n,
          );
        // Both instances reach the claim of the same tick, and wait on the row.
        await waitFor(async () => (await waiting()) === 2, { what: "both instances waiting to claim the tick", timeoutMs: TICK_PATIENCE_MS, intervalMs: 20 });
        await lock`ROLLBACK`;

        const tickNow = async () => Number((await sql`SELECT tick FROM job_ticks WHERE name = ${JOB}`)[0].tick);
        const claimed = await waitFor(async () => ((await tickNow()) > before ? tickNow() : null), {
          what: "the tick's claim",
          timeoutMs: 10_000,
          intervalMs: 20,
        });
        expect(claimed % 60_000).toBe(0);
        await waitFor(() => attemptLines(2).reduce((x, y) => x + y) >= 1, { what: "the job's attempt", timeoutMs: 10_000, intervalMs: 20 });
        expect((await sql`SELECT attempts::int AS attempts FROM backchannel_deliveries WHERE id = ${delivery.id}`)[0].attempts).toBe(2);
        // One instance attempted it (either may own the tick); neither reported the job failing.
        expect(attemptLines(2).sort()).toEqual([0, 1]);
        expect([a, b].flatMap((i) => i.server.log.filter((l) => l.includes('"msg":"job failed"') && l.includes(JOB)))).toEqual([]);
      } finally {
        lock.release();
      }
    });
  }, 150_000);
});
