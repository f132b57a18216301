/**
 * Which instance Dwell takes as an event's after a lost answer (only one read back with every fact
 * it set), and the one path every instance call uses, against the API's description.
 */
import { describe, expect, it } from "vitest";
import { requestProblem } from "../../../tests/fakes/vrchat-contract";
import { isMadeAsRequested } from "./vrchat-instances.server";
import { instancePath, shortJoinLink, splitLocation } from "./vrchat-location";

const GROUP = "grp_5f3c9a1e-2b4d-4c6e-8f70-1a2b3c4d5e6f";
const BOT = "usr_0b0b0b0b-1c1c-4d2d-8e3e-4f4f4f4f4f4f";
const END = "2031-05-01T22:00:00.000Z";
const facts = { groupId: GROUP, botUserId: BOT };

describe("an instance read back after a lost answer", () => {
  const roleOnly = { access: "role" as const, roleIds: ["grol_ours"], calendarEntryId: "cal_1", closedAt: END };
  const made = { ownerId: GROUP, creatorId: BOT, type: "group", groupAccessType: "members", roleRestricted: true, calendarEntryId: "cal_1", closedAt: END };

  it("is the event's only when every fact Dwell set matches", () => {
    expect(isMadeAsRequested(made, roleOnly, facts)).toBe(true);
    // VRChat writes times its own way: the same second is the same time.
    expect(isMadeAsRequested({ ...made, closedAt: "2031-05-01T22:00:00Z" }, roleOnly, facts)).toBe(true);
    // Roles read back, when VRChat sends them, must be exactly the event's own.
    expect(isMadeAsRequested({ ...made, roleIds: ["grol_ours"] }, roleOnly, facts)).toBe(true);
  });

  it.each([
    ["another owner", { ownerId: "grp_other" }],
    ["another creator (a member opened it)", { creatorId: "usr_someone-else" }],
    ["not a group instance", { type: "hidden" }],
    ["open to all the group's members", { roleRestricted: false }],
    ["restricted to other roles", { roleIds: ["grol_ours", "grol_moderators"] }],
    ["restricted to another role", { roleIds: ["grol_theirs"] }],
    ["another access type", { groupAccessType: "public" }],
    ["no calendar entry", { calendarEntryId: null }],
    ["another calendar entry", { calendarEntryId: "cal_2" }],
    ["no closing time (a standing hangout)", { closedAt: null }],
    ["another closing time", { closedAt: "2031-05-01T23:00:00.000Z" }],
    ["no owner said", { ownerId: null }],
  ])("is not the event's with %s", (_, change) => {
    expect(isMadeAsRequested({ ...made, ...change }, roleOnly, facts)).toBe(false);
  });

  it("takes no role-restricted instance for an event open to members, and no calendar entry it did not ask for", () => {
    const members = { access: "members" as const, roleIds: [], calendarEntryId: null, closedAt: END };
    const open = { ownerId: GROUP, creatorId: BOT, type: "group", groupAccessType: "members", roleRestricted: false, closedAt: END };
    expect(isMadeAsRequested(open, members, facts)).toBe(true);
    expect(isMadeAsRequested({ ...open, roleRestricted: true }, members, facts)).toBe(false);
    expect(isMadeAsRequested({ ...open, calendarEntryId: "cal_1" }, members, facts)).toBe(false);
  });
});

describe("an instance's path", () => {
  const location = `wrld_4432ea9b-729c-46e3-8eaf-846aa0a37fdd:12345~group(${GROUP})~groupAccessType(public)~region(eu)`;

  it("keeps the colon between world and instance, as the API's description writes it", () => {
    const path = instancePath(location);
    expect(path).toBe(`/instances/wrld_4432ea9b-729c-46e3-8eaf-846aa0a37fdd:12345~group(${GROUP})~groupAccessType(public)~region(eu)`);
    expect(requestProblem({ method: "DELETE", path, rawPath: path, query: {} })).toBeNull();
    expect(requestProblem({ method: "GET", path, rawPath: path, query: {} })).toBeNull();
    expect(requestProblem({ method: "GET", path: `${path}/shortName`, rawPath: instancePath(location, "/shortName"), query: {} })).toBeNull();
    // The mistake it replaces: the whole location encoded at once.
    const encoded = `/instances/${encodeURIComponent(location)}`;
    expect(requestProblem({ method: "DELETE", path: decodeURIComponent(encoded), rawPath: encoded, query: {} })).toMatch(/no such operation/);
  });

  it("encodes what could break the path, and refuses what is not a location", () => {
    expect(instancePath("wrld_a:1~x(a/b)")).toBe("/instances/wrld_a:1~x(a%2Fb)");
    expect(() => instancePath("wrld_a")).toThrow();
    expect(splitLocation(":1")).toBeNull();
  });

  it("gives the short link without the owner or the nonce", () => {
    expect(shortJoinLink("abc12345")).toBe("https://vrch.at/abc12345");
  });
});
