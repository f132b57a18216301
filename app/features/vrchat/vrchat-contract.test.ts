/**
 * The fake VRChat and the client, both held to the API's description (tests/fakes/vrchat-contract.ts):
 * every answer the fake gives has the fields and values VRChat's do, and every request the client
 * makes is an operation VRChat has, with only the query parameters it takes, within their limits.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import type { z } from "zod";
import { eq, sql } from "drizzle-orm";
import { events, vrchatPublications, vrchatSessions } from "~/db/schema";
import {
  CalendarEventListSchema,
  CalendarEventSchema,
  DeleteCalendarEventSuccessSchema,
  CurrentUserSchema,
  GroupInstanceSchema,
  GroupMemberListSchema,
  GroupMemberSchema,
  LimitedUserSearchSchema,
  UserSchema,
  LimitedUserGroupsSchema,
  GroupPostsSchema,
  GroupPostSchema,
  FileSchema,
  SuccessSchema,
  GroupSchema,
  InstanceSchema,
  requestProblem,
  TwoFactorRequiredSchema,
  UserGroupInstanceListSchema,
  GroupAuditLogListSchema,
} from "../../../tests/fakes/vrchat-contract";
import { FAKE_GROUP_ID, FAKE_SESSION_SECRET, FAKE_USERNAME, fakeUserId, fakeVRChatAccount, startFakeVRChat, type FakeEndpoint, type FakeVRChat } from "../../../tests/fakes/vrchat";
import { createTestDatabase, type TestDatabase } from "../../../tests/setup/test-database";
import { createCanvas } from "@napi-rs/canvas";
import { createCalendarPublisher } from "./calendar-publisher.server";
import { createPacer } from "./vrchat-actions.server";
import { createPostKeeper } from "./vrchat-posts.server";
import { createVRChatAuditLog } from "./vrchat-audit-log.server";
import { refreshGroupData, type GroupSnapshot } from "./vrchat-api.server";
import { createVRChatClient, USER_AGENT_PRODUCT } from "./vrchat-client.server";
import { createVRChatMembership } from "./vrchat-membership.server";
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
  joinRequests: GroupMemberListSchema,
  bans: GroupMemberListSchema,
  ban: GroupMemberSchema,
  unban: GroupMemberSchema,
  otherGroup: GroupSchema,
  membership: GroupMemberSchema,
  searchUsers: LimitedUserSearchSchema.array(),
  user: UserSchema,
  userGroups: LimitedUserGroupsSchema.array(),
  createCalendarEvent: CalendarEventSchema,
  createPost: GroupPostSchema,
  updatePost: GroupPostSchema,
  deletePost: SuccessSchema,
  uploadImage: FileSchema,
  updateCalendarEvent: CalendarEventSchema,
  deleteCalendarEvent: DeleteCalendarEventSuccessSchema,
  auditLogs: GroupAuditLogListSchema,
};

let database: TestDatabase;
let fake: FakeVRChat;

beforeAll(async () => {
  database = await createTestDatabase("pglite");
  fake = await startFakeVRChat();
  await database.db.delete(vrchatSessions);
  const client = createVRChatClient({ ...fakeVRChatAccount(fake), store: databaseSessionStore(database.db, FAKE_USERNAME, FAKE_SESSION_SECRET), baseDelayMs: 5 });
  let previous: GroupSnapshot | null = null;
  // A round of the calendar's months, and the instance fallback (one instance read per refresh).
  for (let i = 0; i < 5; i++) {
    if (i === 3) fake.setEndpoint("userGroupInstances", { status: 403, message: "User ID must be your own." });
    const now = new Date(Date.now() + i * 11 * 60_000);
    previous = (await refreshGroupData(client, FAKE_GROUP_ID, { maxMembers: 200, now, deadline: Date.now() + 20_000, previous })).snapshot;
  }
  // The lookups of an applicant and the actions of decisions.
  fake.group.people.push(
    { id: fakeUserId(1), displayName: "Moth Light", status: "requested", thumbnailUrl: "https://files.vrchat.cloud/thumb.png", tags: ["system_trust_basic", "system_trust_known"], ageVerificationStatus: "18+", groups: ["grp_00000000-0000-4000-8000-000000000001"] },
    { id: fakeUserId(2), displayName: "Moth", status: "none" },
    { id: fakeUserId(3), displayName: "Moth Keeper", status: "member" },
    { id: fakeUserId(4), displayName: "Other", status: "requested" },
  );
  const membership = createVRChatMembership({ client, groupId: FAKE_GROUP_ID, timeoutMs: 5_000, actionSpacingMs: 0 });
  await membership.findCandidates("moth light");
  await membership.describeUser(fakeUserId(2));
  // What screening reads: the account, its groups, its standing in the group.
  await membership.screeningFacts(fakeUserId(1), { groups: true, standing: true });
  const act = (userId: string, action: "accept" | "reject", block = false) =>
    membership.channel.deliver({ applicationKind: "group", applicationId: crypto.randomUUID(), userId, action, block, actor: { id: "a", name: "Admin" } });
  await act(fakeUserId(1), "accept");
  await act(fakeUserId(2), "accept");
  await act(fakeUserId(4), "reject", true);
  // The join requests' read, another group named by a rule, and a ban and its unban (then the bans' read).
  await membership.listJoinRequests(1);
  fake.group.otherGroups = [{ id: "grp_0a0a0a0a-1111-4222-8333-444444444444", name: "The Lantern Guild" }];
  await membership.groupName("grp_0a0a0a0a-1111-4222-8333-444444444444");
  const banJob = (action: "ban" | "unban") => membership.bans.channel.deliver({ action, banId: crypto.randomUUID(), userId: fakeUserId(3), actor: { id: "a", name: "Admin" } });
  await banJob("ban");
  await membership.bans.list(1);
  await banJob("unban");
  // The audit log read for the moderation history: a page from a time, and the next page of a sweep.
  const auditLog = createVRChatAuditLog({ client, groupId: FAKE_GROUP_ID });
  await auditLog.page({ startDate: new Date(Date.now() - 86_400_000).toISOString(), endDate: new Date().toISOString() }, 0);
  await auditLog.page({ startDate: null, endDate: new Date().toISOString() }, 100);
  // An event published to the calendar, edited, then taken off it.
  const publisher = createCalendarPublisher({ db: database.db, client, groupId: FAKE_GROUP_ID, timeoutMs: 5_000, spacingMs: 0 });
  const [event] = await database.db.insert(events).values({ title: "Lantern Walk", eventDate: "2031-05-01", eventTime: "20:00", worldName: "W" }).returning();
  const details = {
    title: "Lantern Walk",
    description: "https://dwell.example/events/x",
    startsAt: "2031-05-01T20:00:00.000Z",
    endsAt: "2031-05-01T22:00:00.000Z",
    category: "exploration",
    accessType: "public" as const,
    languages: ["eng"],
    platforms: ["standalonewindows", "android", "ios"],
    notify: false,
  };
  const [publication] = await database.db.insert(vrchatPublications).values({ eventId: event!.id, details }).returning();
  const deliver = () => publisher.channel.deliver({ publicationId: publication!.id });
  const change = (values: Partial<typeof vrchatPublications.$inferInsert>) =>
    database.db.update(vrchatPublications).set({ ...values, version: sql`${vrchatPublications.version} + 1` }).where(eq(vrchatPublications.id, publication!.id));
  await deliver();
  await change({ details: { ...details, title: "Lantern Walk at Dusk" } });
  await deliver();
  await change({ wanted: false });
  await deliver();
  // An announcement's post: its picture uploaded, made, edited, and deleted.
  const posts = createPostKeeper({ client, groupId: FAKE_GROUP_ID, pacer: createPacer(0) });
  const imageId = await posts.upload(Buffer.from(createCanvas(4, 4).toBuffer("image/png")));
  const body = { title: "Lanterns at dusk", text: "We gather at dusk.", visibility: "public" as const, sendNotification: false, imageId };
  const postId = await posts.create(body);
  await posts.update(postId, { ...body, title: "Lanterns at dawn" });
  await posts.findMade("Lanterns at dawn", new Date(), new Set());
  await posts.remove(postId);
});
afterAll(async () => {
  await fake?.close();
  await database?.close();
});

it("answers as VRChat's API is described", () => {
  const seen = new Set(fake.answers.map((answer) => answer.endpoint));
  expect([...seen].sort()).toEqual([
    "auditLogs", "ban", "bans", "calendar", "createCalendarEvent", "createPost", "currentUser", "deleteCalendarEvent", "deletePost", "group", "groupInstances", "instance", "invite", "joinRequests",
    "members", "membership", "otherGroup", "posts", "respondRequest", "searchUsers", "unban", "updateCalendarEvent", "updatePost", "uploadImage", "user", "userGroupInstances", "userGroups",
  ]);
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

it("acts in VRChat only as asked: one accept, one invite, one reject with a block, one ban and its unban", () => {
  expect(fake.actions.map(({ kind, userId, block }) => ({ kind, userId, block }))).toEqual([
    { kind: "accept", userId: fakeUserId(1), block: undefined },
    { kind: "invite", userId: fakeUserId(2), block: undefined },
    { kind: "reject", userId: fakeUserId(4), block: true },
    { kind: "ban", userId: fakeUserId(3), block: undefined },
    { kind: "unban", userId: fakeUserId(3), block: undefined },
  ]);
});

it("catches a request VRChat would not take", () => {
  expect(requestProblem({ method: "GET", path: `/groups/${FAKE_GROUP_ID}/members`, query: { n: "250" } })).toMatch(/n=250/);
  expect(requestProblem({ method: "GET", path: `/groups/${FAKE_GROUP_ID}/posts`, query: { page: "2" } })).toMatch(/unknown query parameter page/);
  expect(requestProblem({ method: "GET", path: `/instances/wrld_x:`, query: {} })).toMatch(/no such operation/);
  expect(requestProblem({ method: "PUT", path: `/groups/${FAKE_GROUP_ID}/requests/${fakeUserId(1)}`, query: {}, body: { action: "approve" } })).toMatch(/body/);
  expect(requestProblem({ method: "POST", path: `/groups/${FAKE_GROUP_ID}/invites`, query: {}, body: { user: fakeUserId(1) } })).toMatch(/body/);
  const entry = { title: "x".repeat(65), description: "d", startsAt: "2031-01-01T00:00:00Z", endsAt: "2031-01-01T02:00:00Z", category: "hangout", accessType: "public", sendCreationNotification: false };
  expect(requestProblem({ method: "POST", path: `/calendar/${FAKE_GROUP_ID}/event`, query: {}, body: entry })).toMatch(/body/);
  expect(requestProblem({ method: "POST", path: `/calendar/${FAKE_GROUP_ID}/event`, query: {}, body: { ...entry, title: "x" } })).toBeNull();
  expect(requestProblem({ method: "PUT", path: `/calendar/${FAKE_GROUP_ID}/cal_1/event`, query: {}, body: { accessType: "group" } })).toMatch(/body/);
});
