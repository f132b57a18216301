import { describe, expect, it } from "vitest";
import { createLookupCache, LookupBudgetError } from "./lookup-cache.server";

describe("the lookup cache", () => {
  function setup(callsPerMinute = 2) {
    let clock = 0;
    let loads = 0;
    const cache = createLookupCache({ ttlMs: 1_000, callsPerMinute, budgetMessage: () => "slow down", now: () => clock });
    const load = (value: string) => () => {
      loads++;
      return Promise.resolve(value);
    };
    return { cache, load, tick: (ms: number) => (clock += ms), loads: () => loads };
  }

  it("reuses an answer until it is old, and asks again after", async () => {
    const { cache, load, tick, loads } = setup(10);
    expect(await cache.get("a", load("one"))).toBe("one");
    tick(999);
    expect(await cache.get("a", load("two"))).toBe("one");
    tick(1);
    expect(await cache.get("a", load("three"))).toBe("three");
    cache.forget("a");
    expect(await cache.get("a", load("four"))).toBe("four");
    expect(loads()).toBe(3);
  });

  it("allows so many calls a minute, answers from the cache not counted", async () => {
    const { cache, load, tick } = setup(2);
    await cache.get("a", load("a"));
    await cache.get("a", load("a"));
    await cache.get("b", load("b"));
    await expect(cache.get("c", load("c"))).rejects.toEqual(new LookupBudgetError("slow down"));
    tick(60_000);
    expect(await cache.get("c", load("c"))).toBe("c");
  });

  it("does not keep a failure", async () => {
    const { cache, load } = setup(10);
    await expect(cache.get("a", () => Promise.reject(new Error("down")))).rejects.toThrow("down");
    expect(await cache.get("a", load("up"))).toBe("up");
  });
});
