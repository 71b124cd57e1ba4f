import { describe, expect, it } from "bun:test";
import { listCache } from "../../src/workspace/storage/list-cache.ts";

// Issue 46: a list answer is built from awaited reads, so two requests may build the same answer
// at once. The cache must keep one of them and count its bytes once.

describe("the list cache with builds that wait", () => {
  it("answers a hit without building, and builds again once the version moved", async () => {
    const cache = listCache<string>(1000);
    const build = (value: string) => async () => value;
    expect(await cache.get("set", 1, build("one"))).toBe("one");
    expect(await cache.get("set", 1, build("never built"))).toBe("one");
    expect(await cache.get("set", 2, build("two"))).toBe("two");
    expect(cache.counts).toEqual({ hits: 1, builds: 2 });
  });

  it("keeps one of two concurrent builds of a key and counts its bytes once", async () => {
    // 12 bytes: one three-letter answer is 6 (two per UTF-16 unit); two counted would be 12, and a third answer would push the first out.
    const cache = listCache<string>(12);
    let finish = () => {};
    const slow = new Promise<void>((resolve) => (finish = resolve));
    const first = cache.get("a", 1, async () => (await slow, "aaa"));
    const second = cache.get("a", 1, async () => "aaa");
    expect(await second).toBe("aaa");
    finish();
    expect(await first).toBe("aaa");
    expect(await cache.get("b", 1, async () => "bbb")).toBe("bbb");
    // Both entries fit in 12 bytes: "a" is still there.
    expect(await cache.get("a", 1, async () => "new")).toBe("aaa");
    expect(cache.counts).toEqual({ hits: 1, builds: 3 });
  });
});
