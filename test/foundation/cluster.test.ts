import { describe, expect, it } from "bun:test";
import { primaryCluster, singleProcess, workerCluster } from "../../src/context/cluster.ts";
import { CLUSTER_TOPICS } from "../../src/shared/cluster-topics.ts";

// The transport carries any topic name; the app's own are CLUSTER_TOPICS (the default type).

/** A primary and two workers linked in memory, each message cloned and delivered on a later turn, as IPC does. */
function linked() {
  const primary = primaryCluster<string>();
  const workers = [0, 1].map(() => {
    const link = { send: (message: unknown) => setImmediate(() => worker.receive(structuredClone(message))) };
    const worker = workerCluster<string>((message) => setImmediate(() => primary.receive(link, structuredClone(message))));
    primary.attach(link);
    return worker;
  });
  return { primary, workers: workers as [(typeof workers)[number], (typeof workers)[number]] };
}

const turns = () => new Promise((resolve) => setTimeout(resolve, 10));

describe("the cluster messages between a primary and its workers", () => {
  it("tellOthers reaches every other process once, never the sender", async () => {
    const { primary, workers } = linked();
    const seen: string[] = [];
    primary.on("t", (p) => seen.push(`primary:${p}`));
    for (const [i, w] of workers.entries()) w.on("t", (p) => seen.push(`w${i}:${p}`));
    workers[0].tellOthers("t", "a");
    primary.tellOthers("t", "b");
    await turns();
    expect(seen.sort()).toEqual(["primary:a", "w0:b", "w1:a", "w1:b"]);
  });

  it("ask runs the primary's handler and answers its value; a failing handler is an error for the asker only", async () => {
    const { primary, workers } = linked();
    let count = 0;
    primary.on("count", () => ++count);
    primary.on("broken", () => {
      throw new Error("broken handler");
    });
    // The primary's own question is answered in place; the workers' travel, in the order sent.
    expect(await Promise.all([workers[0].ask("count", null), workers[1].ask("count", null), primary.ask("count", null)])).toEqual([2, 3, 1]);
    expect(count).toBe(3);
    // Settled first, then checked: expect(...).rejects on a promise still pending waits for the
    // IPC-like setImmediate deliveries in a way that took seconds under load.
    const failure = await workers[0].ask("broken", null).then(
      () => null,
      (e: Error) => e.message,
    );
    expect(failure).toBe("broken handler");
    expect(await workers[1].ask("count", null)).toBe(4);
  });

  it("a message for a topic nobody handles, or a handler that throws, leaves the receiving process running", async () => {
    const { primary, workers } = linked();
    primary.on("boom", () => {
      throw new Error("boom");
    });
    workers[0].tellPrimary("nobody-handles-this", 1);
    workers[0].tellPrimary("boom", 1);
    workers[1].tellOthers("boom", 1);
    await turns();
    primary.on("alive", () => "yes");
    expect(await workers[0].ask("alive", null)).toBe("yes");
  });

  it("a worker whose channel is closed gets an error at once rather than waiting", async () => {
    const worker = workerCluster<string>(() => {
      throw new Error("channel closed");
    });
    worker.tellPrimary("t", 1); // dropped, no throw
    await expect(worker.ask("t", 1)).rejects.toThrow("no channel to the primary");
  });

  it("the app's topics are distinct names: a process holds one handler per topic, so two sharing one would replace each other", () => {
    const names = Object.values(CLUSTER_TOPICS);
    expect(new Set(names).size).toBe(names.length);
  });

  it("alone, everything is handled in place", async () => {
    const single = singleProcess<string>();
    const seen: number[] = [];
    single.on("t", (p) => seen.push(p as number));
    single.on("q", (p) => (p as number) * 2);
    single.tellOthers("t", 1);
    single.tellPrimary("t", 2);
    expect(await single.ask("q", 21)).toBe(42);
    expect(seen).toEqual([2]);
  });
});
