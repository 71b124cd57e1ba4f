import { Cron } from "croner";
import type { AppContext } from "../context/context.ts";
import { rotateIfDue } from "../keys/rotation.ts";
import { deliverDue } from "../oauth/logout/backchannel.service.ts";
import { renewDueSets } from "../workspace/renew/renew.job.ts";
import { sendDueDigests } from "../workspace/digest/due-digest.ts";
import { purgeExpired } from "./purge.ts";
import { refreshUiTranslations } from "../docs/site/translate.ts";
import { recheckDomains } from "../identity/domains/domains.service.ts";
import { ownsRun } from "./job-ticks.ts";

/**
 * Every schedule is in UTC. Local time would load the runtime's time-zone data (ICU) at start, about
 * 15 ms and 4.5 MB of memory for the life of the process (issue 12), and a local 03:17 is skipped or
 * repeated on the nights the clocks change. A set's daily renewal keeps its own time zone (renew.schedule.ts).
 * Each job gets a copy: croner fills its defaults into the options object it is given.
 */
export const SCHEDULE = { protect: true, utcOffset: 0 } as const;

/** The in-process schedules (ARCHITECTURE section 1). Returns a function that stops them. */
export function startJobs(ctx: AppContext): () => void {
  const run = (name: string, work: () => void | Promise<void>) => async (job: Cron) => {
    try {
      // Several instances on PostgreSQL: the one that claims the tick runs it.
      if (!(await ownsRun(ctx.db, name, job))) return;
      await work();
    } catch (e) {
      ctx.log.error("job failed", { job: name, error: (e as Error).message });
    }
  };
  const jobs = [
    new Cron(
      "*/10 * * * *",
      { ...SCHEDULE },
      run("purge", async () => void (await purgeExpired(ctx))),
    ),
    new Cron(
      "17 3 * * *",
      { ...SCHEDULE },
      run("key rotation", () => rotateIfDue(ctx)),
    ),
    // Retries of back-channel logout tokens, and those a restart left owed.
    new Cron(
      "* * * * *",
      { ...SCHEDULE },
      run("back-channel logout", () => void deliverDue(ctx)),
    ),
    new Cron(
      "*/15 * * * *",
      { ...SCHEDULE },
      run("auto-renew", () => void renewDueSets(ctx)),
    ),
    // Issue 44: each subscriber's digest once their local morning comes (zones differ by quarter hours).
    new Cron(
      "*/15 * * * *",
      { ...SCHEDULE },
      run("due digests", () => void sendDueDigests(ctx)),
    ),
    // Custom domains stay verified only while their TXT record does.
    new Cron(
      "23 * * * *",
      { ...SCHEDULE },
      run("domain re-check", () => void recheckDomains(ctx)),
    ),
    // Spec 3 section 4.4: the docs site's own words in each translated locale, hourly (pushes never drop them).
    new Cron(
      "7 * * * *",
      { ...SCHEDULE },
      run("docs site translations", () => refreshUiTranslations(ctx)),
    ),
  ];
  return () => {
    for (const job of jobs) job.stop();
  };
}
