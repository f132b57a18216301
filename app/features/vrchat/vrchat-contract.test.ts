/**
 * The fake VRChat and the client, both held to the API's description (tests/fakes/vrchat-contract.ts):
 * every answer the fake gives has the fields and values VRChat's do, and every request the client
 * makes is an operation VRChat has, with only the query parameters it takes, within their limits.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import type { z } from "zod";
import { vrchatSessions } from "~/db/schema";
import {
  CalendarEventListSchema,
  CurrentUserSchema,
  GroupInstanceSchema,
  GroupMemberListSchema,
  GroupPostsSchema,
  GroupSchema,
  InstanceSchema,
  requestProblem,
  TwoFactorRequiredSchema,
  UserGroupInstanceListSchema,
} from "../../../tests/fakes/vrchat-contract";
import { FAKE_GROUP_ID, FAKE_USERNAME, fakeVRChatAccount, startFakeVRChat, type FakeEndpoint, type FakeVRChat } from "../../../tests/fakes/vrchat";
import { createTestDatabase, type TestDatabase } from "../../../tests/setup/test-database";
import { refreshGroupData, type GroupSnapshot } from "./vrchat-api.server";
import { createVRChatClient, USER_AGENT_PRODUCT } from "./vrchat-client.server";
import { databaseSessionStore } from "./vrchat-session.server";

const ANSWERS: Partial<Record<FakeEndpoint, z.ZodType>> = {
  group: GroupSchema,
  userGroupInstances: UserGroupInstanceListSchema,
  groupInstances: GroupInstanceSchema.array(),
  instance: InstanceSchema.nullable(),
  posts: GroupPostsSchema,
  calendar: CalendarEventListSchema,
  members: GroupMemberListSchema,
  currentUser: CurrentUserSchema.or(TwoFactorRequiredSchema),
};

let database: TestDatabase;
let fake: FakeVRChat;

beforeAll(async () => {
  database = await createTestDatabase("pglite");
  fake = await startFakeVRChat();
  await database.db.delete(vrchatSessions);
  const client = createVRChatClient({ ...fakeVRChatAccount(fake), store: databaseSessionStore(database.db, FAKE_USERNAME), baseDelayMs: 5 });
  let previous: GroupSnapshot | null = null;
  // A round of the calendar's months, and the instance fallback (one instance read per refresh).
  for (let i = 0; i < 5; i++) {
    if (i === 3) fake.setEndpoint("userGroupInstances", { status: 403, message: "User ID must be your own." });
    const now = new Date(Date.now() + i * 11 * 60_000);
    previous = (await refreshGroupData(client, FAKE_GROUP_ID, { maxMembers: 200, now, deadline: Date.now() + 20_000, previous })).snapshot;
  }
});
afterAll(async () => {
  await fake?.close();
  await database?.close();
});

it("answers as VRChat's API is described", () => {
  const seen = new Set(fake.answers.map((answer) => answer.endpoint));
  expect([...seen].sort()).toEqual(["calendar", "currentUser", "group", "groupInstances", "instance", "members", "posts", "userGroupInstances"]);
  const problems = fake.answers.flatMap(({ endpoint, body }) => {
    const parsed = ANSWERS[endpoint]?.safeParse(body);
    return parsed && !parsed.success ? [`${endpoint}: ${parsed.error.issues[0]?.path.join(".")} ${parsed.error.issues[0]?.message}`] : [];
  });
  expect(problems).toEqual([]);
});

it("is asked only what VRChat's API offers, within its limits, always saying who asks", () => {
  expect(fake.requests.length).toBeGreaterThan(20);
  expect(fake.requests.map(requestProblem).filter(Boolean)).toEqual([]);
  expect([...fake.userAgents]).toEqual([`${USER_AGENT_PRODUCT} admins@dwell.example`]);
});

it("catches a request VRChat would not take", () => {
  expect(requestProblem({ method: "GET", path: `/groups/${FAKE_GROUP_ID}/members`, query: { n: "250" } })).toMatch(/n=250/);
  expect(requestProblem({ method: "GET", path: `/groups/${FAKE_GROUP_ID}/posts`, query: { page: "2" } })).toMatch(/unknown query parameter page/);
  expect(requestProblem({ method: "GET", path: `/instances/wrld_x:`, query: {} })).toMatch(/no such operation/);
});
