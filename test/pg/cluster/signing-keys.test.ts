import { describe, expect, it } from "bun:test";
import { and, eq, isNull } from "drizzle-orm";
import { createKeyCache } from "../../../src/keys/keys.context.ts";
import { signingKeys } from "../../../src/keys/keys.table.ts";
import { rotateKeys, signingKey } from "../../../src/keys/keystore.ts";
import type { TestApp } from "../../helpers/app.ts";
import { pgSkipReason } from "../../helpers/postgres.ts";
import { twoInstances } from "./two-contexts.fixture.ts";

/** The app's context with a key cache of its own: each asks the database as a process starting would. */
const starting = (app: TestApp) => ({ ...app.ctx, keys: createKeyCache() });

const activeKids = async (app: TestApp, use: string, alg: string) =>
  (
    await app.ctx.db
      .select({ kid: signingKeys.kid })
      .from(signingKeys)
      .where(and(eq(signingKeys.use, use), eq(signingKeys.alg, alg), isNull(signingKeys.retiredAt)))
      .all()
  ).map((r) => r.kid);

describe.skipIf(pgSkipReason !== null)("issue 46: signing keys shared by instances on one PostgreSQL database", () => {
  const apps = twoInstances();

  it("makes one first key when processes of A and B ask for it at once, and every one signs with it", async () => {
    const use = "test_first";
    expect(await activeKids(apps.a, use, "ES256")).toEqual([]);
    const keys = await Promise.all(Array.from({ length: 8 }, (_, i) => signingKey(starting(i % 2 === 0 ? apps.a : apps.b), use, "ES256")));
    const stored = await activeKids(apps.b, use, "ES256");
    expect(stored).toHaveLength(1);
    expect(new Set(keys.map((k) => k.kid))).toEqual(new Set(stored));
  });

  it("leaves one active key per algorithm after rotations on A and B at once", async () => {
    const use = "test_rotated";
    await signingKey(starting(apps.a), use, "ES256");
    const rotated = await Promise.all([rotateKeys(starting(apps.a), use, ["ES256"]), rotateKeys(starting(apps.b), use, ["ES256"])]);
    const active = await activeKids(apps.a, use, "ES256");
    expect(active).toHaveLength(1);
    expect(rotated.flat()).toContain(active[0] as string);
  });

  it("keeps keys in memory on B, and B signs with A's rotated key on its next request, and publishes it", async () => {
    const use = "test_kept";
    await signingKey(apps.b.ctx, use, "ES256"); // made: its insert moves the version, so the next one reads it
    const first = await signingKey(apps.b.ctx, use, "ES256");
    // Kept: B's next request gets the same key object, not one read and imported again.
    expect(await signingKey(apps.b.ctx, use, "ES256")).toBe(first);
    const [rotated] = await rotateKeys(starting(apps.a), use, ["ES256"]);
    expect(rotated).not.toBe(first.kid);
    expect((await signingKey(apps.b.ctx, use, "ES256")).kid).toBe(rotated as string);
  });
});
