import { describe, expect, it } from "vitest";
import { createMemo } from "./memo.server";

describe("a read kept for a moment", () => {
  it("is read once within its time, again after it, and per database", async () => {
    const memo = createMemo(1_000);
    const first = {};
    const second = {};
    let reads = 0;
    const load = async () => ++reads;
    expect(await memo.get(first, "group", load, 10_000)).toBe(1);
    expect(await memo.get(first, "group", load, 10_999)).toBe(1);
    expect(await memo.get(second, "group", load, 10_999)).toBe(2);
    expect(await memo.get(first, "event", load, 10_999)).toBe(3);
    expect(await memo.get(first, "group", load, 11_000)).toBe(4);
  });

  it("is forgotten when its database is written to, and never keeps a failure", async () => {
    const memo = createMemo(60_000);
    const db = {};
    let reads = 0;
    expect(await memo.get(db, "group", async () => ++reads)).toBe(1);
    memo.forget(db);
    expect(await memo.get(db, "group", async () => ++reads)).toBe(2);
    await expect(memo.get(db, "broken", async () => Promise.reject(new Error("database down")))).rejects.toThrow("database down");
    expect(await memo.get(db, "broken", async () => "read again")).toBe("read again");
  });
});
