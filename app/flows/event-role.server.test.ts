/**
 * Who gets into an event with applications, against the VRChat fake over loopback and a real
 * database: the event's own role made once at the first approval, given to approved members (linked
 * by their profile link under the name they gave), a non-member invited once and given the role when
 * they join, the role taken at a withdrawal (the waitlisted one moved up gets it) and at a rejection,
 * the role-only instance with the join link sent by DM, and after the end the role taken from
 * everyone and deleted. Each entry point (a card decision, the bulk bar, a withdrawal, a staff
 * member's link) goes through the same rule.
 */
import { and, eq } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, beforeEach, expect, it } from "vitest";
import { applicationAuditLog, eventApplicationQuestions, eventApplications, eventRoles, events, outbox, profiles, siteSettings, vrchatSessions } from "~/db/schema";
import { setEventApprovalInvites } from "~/features/accounts/site-settings.server";
import { answerFieldName } from "~/features/applications/answers";
import { listFormQuestions, submitApplication } from "~/features/applications/applications.server";
import { newStatusToken } from "~/features/decisions/decisions.server";
import { createOutboxWorker } from "~/features/notifications/outbox.server";
import { createVRChatClient } from "~/features/vrchat/vrchat-client.server";
import { createInstanceOpener } from "~/features/vrchat/vrchat-instances.server";
import { createVRChatMembership } from "~/features/vrchat/vrchat-membership.server";
import { createRoleKeeper, ROLE_NAME_MAX } from "~/features/vrchat/vrchat-roles.server";
import { databaseSessionStore } from "~/features/vrchat/vrchat-session.server";
import { FAKE_GROUP_ID, FAKE_SESSION_SECRET, FAKE_USERNAME, FAKE_WORLD_ID, fakeUserId, fakeVRChatAccount, startFakeVRChat, type FakeVRChat } from "../../tests/fakes/vrchat";
import { requestProblem } from "../../tests/fakes/vrchat-contract";
import { createTestDatabase, describeEachDatabase, type TestDatabase } from "../../tests/setup/test-database";
import { decideApplication, decideApplications, findReview, linkVRChatAccount, type DecideServices, type Decider } from "./decide.server";
import { openEventInstance, type InstanceServices } from "./event-instance.server";
import { deleteEventWithRole, eventRoleChannel, keepEventRoles, recordRoleOutcome, ROLE_TEXTS, type RoleServices } from "./event-role.server";
import { withdrawApplication } from "./withdraw.server";

const SITE = "https://dwell.example";
const keeper: Decider = { id: "", username: "keeper", via: "sanctum", role: "admin" };
const MINUTE = 60 * 1000;
const DAY = 24 * 60 * MINUTE;

describeEachDatabase("who gets into an event with applications", (kind) => {
  let database: TestDatabase;
  let fake: FakeVRChat;
  let decide: DecideServices;
  let roleServices: RoleServices;
  let instances: InstanceServices;
  let deliver: () => Promise<number>;

  beforeAll(async () => {
    database = await createTestDatabase(kind);
    const [profile] = await database.db.insert(profiles).values({ username: "keeper", email: "keeper@dwell.example", role: "admin" }).returning({ id: profiles.id });
    keeper.id = profile!.id;
  });
  afterAll(() => database.close());
  beforeEach(async () => {
    await database.db.delete(siteSettings);
    await database.db.delete(events);
    await database.db.delete(outbox);
    await database.db.delete(applicationAuditLog);
    await database.db.delete(vrchatSessions);
    fake = await startFakeVRChat();
    fake.group.instances = [];
    fake.group.people.push(
      { id: fakeUserId(1), displayName: "Ash", status: "member" },
      { id: fakeUserId(2), displayName: "Birch", status: "member" },
      { id: fakeUserId(3), displayName: "Cedar", status: "none" },
      { id: fakeUserId(4), displayName: "Dune", status: "member" },
    );
    const client = createVRChatClient({ ...fakeVRChatAccount(fake), store: databaseSessionStore(database.db, FAKE_USERNAME, FAKE_SESSION_SECRET), baseDelayMs: 5, maxAttempts: 1 });
    const membership = createVRChatMembership({ client, groupId: FAKE_GROUP_ID, timeoutMs: 5_000, actionSpacingMs: 0 });
    const roles = createRoleKeeper({ client, groupId: FAKE_GROUP_ID, pacer: (call) => call() });
    decide = { db: database.db, vrchat: { membership, membershipActions: true, roles }, discord: null, discordInvite: null, wake: () => {}, siteOrigin: "https://dwell.example" };
    roleServices = { db: database.db, roles, membership, invites: true, wake: () => {} };
    instances = {
      db: database.db,
      instances: createInstanceOpener({ client, groupId: FAKE_GROUP_ID, pacer: (call) => call() }),
      announce: true,
      siteOrigin: SITE,
      wake: () => {},
      roles: roleServices,
      // No bot here: the DMs are tested over HTTP (tests/integration/event-night-roles-http.test.ts).
      directMessages: false,
    };
    const worker = createOutboxWorker(database.db, [eventRoleChannel(roleServices, 5_000)], {
      maxAttempts: 3,
      retryBaseMs: 1,
      // As the server's action worker: one job at a time.
      batchSize: 1,
      onSettled: (job, outcome) => recordRoleOutcome(database.db, job.payload, outcome),
    });
    deliver = () => worker.runOnce();
  });
  afterEach(() => fake.close());

  async function makeEvent(max: number, { startsIn = 3 * DAY, title = "Lantern Night" } = {}) {
    const start = new Date(Date.now() + startsIn);
    const end = new Date(start.getTime() + 2 * 60 * MINUTE);
    const [row] = await database.db
      .insert(events)
      .values({
        title,
        eventDate: start.toISOString().slice(0, 10),
        eventTime: start.toISOString().slice(11, 16),
        endDate: end.toISOString().slice(0, 10),
        endTime: end.toISOString().slice(11, 16),
        timezone: "UTC",
        worldName: "Garden",
        worldId: FAKE_WORLD_ID,
        applicationRequired: true,
        maxAttendees: max,
        waitlistPromotion: "automatic",
      })
      .returning();
    await database.db.insert(eventApplicationQuestions).values([
      { eventId: row!.id, question: "What is your VRChat username?", orderIndex: 0 },
      { eventId: row!.id, question: "Your VRChat profile link", questionType: "vrchat_profile", required: false, orderIndex: 1 },
    ]);
    return row!;
  }

  /** Applies as the public form does, with a profile link (VRChat not asked here: linked at the decision). */
  async function apply(eventId: string, name: string, profile: string | null): Promise<{ id: string; token: string }> {
    const questions = await listFormQuestions(database.db, { kind: "event", eventId });
    const values: Record<string, string> = { [answerFieldName(questions[0]!.id)]: name, [answerFieldName(questions[1]!.id)]: profile ? `https://vrchat.com/home/user/${profile}` : "" };
    const status = newStatusToken();
    const result = await submitApplication(database.db, { scope: { kind: "event", eventId }, questions, fields: (field) => values[field], now: new Date(), statusTokenHash: status.hash });
    if (!result.ok) throw new Error(result.message);
    return { id: result.application.id, token: status.token };
  }

  const attendee = async (id: string) => (await database.db.select().from(eventApplications).where(eq(eventApplications.id, id)))[0]!;
  const eventRole = async (eventId: string) => (await database.db.select().from(eventRoles).where(eq(eventRoles.eventId, eventId)))[0];
  const holders = (roleId: string) => fake.group.roles.find((role) => role.id === roleId)?.holders ?? [];
  const history = async (id: string) =>
    (await database.db.select({ to: applicationAuditLog.toValue }).from(applicationAuditLog).where(and(eq(applicationAuditLog.applicationId, id), eq(applicationAuditLog.field, "vrchat")))).map((row) => row.to);

  it("gives the event's own role to approved members, invites a non-member once (when the owner allows it), and follows withdrawals", async () => {
    await setEventApprovalInvites(database.db, true, { id: keeper.id, username: "owner" });
    const event = await makeEvent(3);
    const ash = await apply(event.id, "Ash", fakeUserId(1));
    const birch = await apply(event.id, "Birch", fakeUserId(2));
    // Cedar's link is their own (VRChat names it as they named themselves), but they are not a member.
    const cedar = await apply(event.id, "Cedar", fakeUserId(3));
    const review = (await findReview(database.db, event.id))!;

    // From the card, then the bulk bar.
    expect(await decideApplication(decide, review, { id: ash.id, status: "approved" }, keeper)).toMatchObject({ kind: "decided", notLinked: false });
    expect(await decideApplications(decide, review, { ids: [birch.id, cedar.id], status: "approved" }, keeper)).toMatchObject({ kind: "decided", changed: 2, notLinked: 0 });
    // The event is full: the next wait. Mallory's link is a claim that does not match (VRChat
    // calls that account "Ash", not "Mallory"): never acted on.
    const mallory = await apply(event.id, "Mallory", fakeUserId(1));
    const dune = await apply(event.id, "Dune", fakeUserId(4));
    expect((await attendee(mallory.id)).status).toBe("waitlist");
    expect((await attendee(dune.id)).status).toBe("waitlist");
    await deliver();

    const role = await eventRole(event.id);
    expect(role).toMatchObject({ state: "ready" });
    const made = fake.roleWrites.filter((write) => write.kind === "create");
    expect(made).toHaveLength(1);
    expect(made[0]!.body).toMatchObject({ name: "Lantern Night", isSelfAssignable: false, permissions: [] });
    expect(holders(role!.roleId!).sort()).toEqual([fakeUserId(1), fakeUserId(2)]);
    expect((await attendee(ash.id)).eventRole).toBe("given");
    expect((await attendee(cedar.id)).eventRole).toBe("not_member");
    expect(fake.actions).toEqual([expect.objectContaining({ kind: "invite", userId: fakeUserId(3) })]);
    expect(await history(cedar.id)).toContainEqual(expect.stringContaining("Not a member of the group in VRChat yet: invite sent"));
    expect(await history(ash.id)).toContain(ROLE_TEXTS.given);

    // Cedar joins; the next look (15 minutes on) asks again and gives the role; no second invite.
    fake.group.people.find((p) => p.id === fakeUserId(3))!.status = "member";
    expect((await keepEventRoles(roleServices, new Date())).queued).toBe(0);
    await database.db.update(eventApplications).set({ eventRoleCheckedAt: new Date(Date.now() - 16 * MINUTE) }).where(eq(eventApplications.id, cedar.id));
    expect((await keepEventRoles(roleServices, new Date())).queued).toBe(1);
    await deliver();
    expect((await attendee(cedar.id)).eventRole).toBe("given");
    expect(fake.actions.filter((action) => action.kind === "invite")).toHaveLength(1);

    // Birch withdraws: the role is taken, and the first on the waitlist (Mallory) moves up, but
    // their claimed link is not theirs: nothing is given to Ash's account for them.
    expect(await withdrawApplication(decide, birch.token, new Date())).toEqual({ kind: "withdrawn" });
    await deliver();
    expect((await attendee(mallory.id)).status).toBe("approved");
    expect((await attendee(mallory.id)).vrchatUserId).toBeNull();
    expect(holders(role!.roleId!).sort()).toEqual([fakeUserId(1), fakeUserId(3)]);
    expect((await attendee(birch.id)).eventRole).toBe("removed");

    // A staff member links Mallory by hand to their real account (Dune's, here): the role follows.
    const linked = await linkVRChatAccount(decide, mallory.id, fakeUserId(4), keeper, review.scope);
    expect(linked).toMatchObject({ kind: "linked", acting: true });
    await deliver();
    expect(holders(role!.roleId!)).toContain(fakeUserId(4));

    // A rejection of an approved attendee takes it away.
    expect(await decideApplication(decide, review, { id: ash.id, status: "rejected" }, keeper)).toMatchObject({ kind: "decided" });
    await deliver();
    expect(holders(role!.roleId!)).not.toContain(fakeUserId(1));
    expect(fake.roleWrites.filter((write) => write.kind === "create")).toHaveLength(1);
    // Every call was one the API describes.
    expect(fake.requests.map(requestProblem).filter((problem) => problem !== null)).toEqual([]);
  });

  it("never invites to the group by default, nor from a host's approval or a place refilled", async () => {
    const event = await makeEvent(1);
    const cedar = await apply(event.id, "Cedar", fakeUserId(3));
    const review = (await findReview(database.db, event.id))!;
    // By default an admin's approval does not invite: Cedar must ask to join, and meets the group's review.
    await decideApplication(decide, review, { id: cedar.id, status: "approved" }, keeper);
    await deliver();
    expect(fake.actions.filter((action) => action.kind === "invite")).toEqual([]);
    expect((await attendee(cedar.id)).eventRole).toBe("not_member");
    expect(await history(cedar.id)).toContain(ROLE_TEXTS.notInvited);

    // Allowed by an owner: still never from a host, who may not decide the group's applications.
    await setEventApprovalInvites(database.db, true, { id: keeper.id, username: "owner" });
    fake.group.people.push({ id: fakeUserId(6), displayName: "Fir", status: "none" }, { id: fakeUserId(7), displayName: "Gorse", status: "none" });
    const hosted = await makeEvent(2, { title: "Hosted night" });
    const fir = await apply(hosted.id, "Fir", fakeUserId(6));
    const host: Decider = { ...keeper, username: "host", role: "host" };
    await decideApplication(decide, (await findReview(database.db, hosted.id))!, { id: fir.id, status: "approved" }, host);
    await deliver();
    expect((await attendee(fir.id)).eventRole).toBe("not_member");
    expect(fake.actions.filter((action) => action.kind === "invite")).toEqual([]);

    // Nor when nobody decides: the one on the waitlist moved up by a withdrawal is not invited.
    fake.group.people.push({ id: fakeUserId(5), displayName: "Elm", status: "none" });
    const elm = await apply(event.id, "Elm", fakeUserId(5));
    expect((await attendee(elm.id)).status).toBe("waitlist");
    await database.db.update(eventApplications).set({ vrchatUserId: fakeUserId(5), vrchatDisplayName: "Elm" }).where(eq(eventApplications.id, elm.id));
    expect(await withdrawApplication(decide, cedar.token, new Date())).toEqual({ kind: "withdrawn" });
    await deliver();
    expect((await attendee(elm.id)).status).toBe("approved");
    expect((await attendee(elm.id)).eventRole).toBe("not_member");
    expect(fake.actions.filter((action) => action.kind === "invite")).toEqual([]);

    // A reviewer's approval, with the owner's leave, invites once.
    const gorse = await apply(hosted.id, "Gorse", fakeUserId(7));
    const reviewer: Decider = { ...keeper, username: "reviewer", role: "reviewer" };
    await decideApplication(decide, (await findReview(database.db, hosted.id))!, { id: gorse.id, status: "approved" }, reviewer);
    await deliver();
    expect(fake.actions.filter((action) => action.kind === "invite")).toEqual([expect.objectContaining({ userId: fakeUserId(7) })]);
  });

  it("finds the account of one moved up by a withdrawal from the visitors' lookups, never the staff's", async () => {
    // The staff's lookups are spent for this minute; the visitors' are not.
    const client = createVRChatClient({ ...fakeVRChatAccount(fake), store: databaseSessionStore(database.db, FAKE_USERNAME, FAKE_SESSION_SECRET), baseDelayMs: 5, maxAttempts: 1 });
    const spent = createVRChatMembership({ client, groupId: FAKE_GROUP_ID, timeoutMs: 5_000, actionSpacingMs: 0, lookupCallsPerMinute: 0 });
    const visitorsOnly: DecideServices = { ...decide, vrchat: { ...decide.vrchat, membership: spent } };
    const event = await makeEvent(1);
    const ash = await apply(event.id, "Ash", fakeUserId(1));
    await decideApplication(visitorsOnly, (await findReview(database.db, event.id))!, { id: ash.id, status: "approved" }, keeper);
    const birch = await apply(event.id, "Birch", fakeUserId(2));
    expect((await attendee(birch.id)).status).toBe("waitlist");
    expect(await withdrawApplication(visitorsOnly, ash.token, new Date())).toEqual({ kind: "withdrawn" });
    expect(await attendee(birch.id)).toMatchObject({ status: "approved", vrchatUserId: fakeUserId(2) });
  });

  it("opens a role-only instance for an event with applications, and retires the role after the end", async () => {
    const event = await makeEvent(5, { startsIn: 10 * MINUTE, title: "A very long name for a night in the garden under lanterns, with music and stories" });
    const ash = await apply(event.id, "Ash", fakeUserId(1));
    const review = (await findReview(database.db, event.id))!;
    await decideApplication(decide, review, { id: ash.id, status: "approved" }, keeper);
    await deliver();
    const role = (await eventRole(event.id))!;
    expect(Array.from(fake.group.roles.find((r) => r.id === role.roleId)!.name).length).toBeLessThanOrEqual(ROLE_NAME_MAX);

    expect(await openEventInstance(instances, event.id, new Date(), { manual: true })).toMatchObject({ kind: "opened" });
    const created = fake.instanceWrites.find((write) => write.kind === "create")!;
    expect(created.body).toMatchObject({ type: "group", ownerId: FAKE_GROUP_ID, groupAccessType: "members", roleIds: [role.roleId], worldId: FAKE_WORLD_ID });
    // An event with applications never announces its link to the channel.
    expect(await database.db.select().from(outbox).where(eq(outbox.target, "discord_announcement"))).toEqual([]);

    // After the end: taken from everyone, then deleted, once.
    // The event is moved into the past (it ended an hour ago).
    const start = new Date(Date.now() - 3 * 60 * MINUTE);
    const end = new Date(Date.now() - 60 * MINUTE);
    await database.db
      .update(events)
      .set({ eventDate: start.toISOString().slice(0, 10), eventTime: start.toISOString().slice(11, 16), endDate: end.toISOString().slice(0, 10), endTime: end.toISOString().slice(11, 16) })
      .where(eq(events.id, event.id));
    const afterEnd = new Date();
    expect((await keepEventRoles(roleServices, afterEnd)).queued).toBe(1);
    expect((await eventRole(event.id))!.state).toBe("retiring");
    // Not deleted while a holder's job waits.
    expect((await keepEventRoles(roleServices, afterEnd)).deleted).toBe(0);
    await deliver();
    expect(holders(role.roleId!)).toEqual([]);
    expect((await keepEventRoles(roleServices, afterEnd)).deleted).toBe(1);
    expect((await eventRole(event.id))!.state).toBe("deleted");
    expect(fake.group.roles.some((r) => r.id === role.roleId)).toBe(false);
    expect(fake.roleWrites.map((write) => write.kind)).toEqual(["create", "give", "take", "delete"]);
    expect((await keepEventRoles(roleServices, afterEnd)).deleted).toBe(0);
  });

  it("makes the role before an instance when nobody is approved yet, once, and finds one made by a try whose answer was lost", async () => {
    const fresh = await makeEvent(5, { startsIn: 10 * MINUTE });
    expect(await openEventInstance(instances, fresh.id, new Date(), { manual: true })).toMatchObject({ kind: "opened" });
    expect((await eventRole(fresh.id))?.state).toBe("ready");
    expect(fake.calls.createRole).toBe(1);

    // A role marked with the event's id in the group already (an earlier try's): found, not made again.
    const event = await makeEvent(5, { startsIn: 10 * MINUTE, title: "Second night" });
    fake.group.roles.push({ id: "grol_00000000-0000-4000-8000-00000000aaaa", name: "Second night", description: `made before [dwell:${event.id}]`, holders: [] });
    expect(await openEventInstance(instances, event.id, new Date(), { manual: true })).toMatchObject({ kind: "opened" });
    expect((await eventRole(event.id))?.roleId).toBe("grol_00000000-0000-4000-8000-00000000aaaa");
    expect(fake.calls.createRole).toBe(1);

    // VRChat refuses the role (the bot may not manage roles): the instance waits for 'Retry', with why.
    fake.setEndpoint("createRole", { status: 403, message: "You do not have permission to manage roles" });
    const refused = await makeEvent(5, { startsIn: 10 * MINUTE, title: "Third night" });
    expect(await openEventInstance(instances, refused.id, new Date())).toMatchObject({ kind: "failed", retrying: false, error: expect.stringContaining("manage and assign the group's roles") });
    expect((await eventRole(refused.id))?.state).toBe("refused");
    fake.setEndpoint("createRole", "normal");
    expect(await openEventInstance(instances, refused.id, new Date(), { manual: true })).toMatchObject({ kind: "opened" });
  });

  it("makes one role when VRChat's answer cannot be read, and takes ids without the `grol_` prefix", async () => {
    // GroupRoleID sets no pattern: VRChat may answer ids without the prefix its example shows.
    fake.group.bareRoleIds = true;
    fake.setEndpoint("createRole", "acts-unreadably");
    const event = await makeEvent(5);
    const ash = await apply(event.id, "Ash", fakeUserId(1));
    await decideApplication(decide, (await findReview(database.db, event.id))!, { id: ash.id, status: "approved" }, keeper);
    await deliver();
    expect(fake.calls.createRole).toBe(1);
    expect((await eventRole(event.id))?.state).toBe("creating");
    fake.setEndpoint("createRole", "normal");
    // The next tries (the job's retries, a minute's look) look for the marked role first: found.
    for (let attempt = 0; attempt < 4 && (await attendee(ash.id)).eventRole !== "given"; attempt++) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      await deliver();
    }
    const role = (await eventRole(event.id))!;
    expect(role.state).toBe("ready");
    expect(role.roleId).toMatch(/^[0-9a-f-]{36}$/);
    expect(fake.calls.createRole).toBe(1);
    expect(holders(role.roleId!)).toEqual([fakeUserId(1)]);
    expect(fake.requests.map(requestProblem).filter((problem) => problem !== null)).toEqual([]);
  });

  it("takes a role id with a space or a slash as VRChat gives it: given and taken in paths that encode it, and made once", async () => {
    fake.group.bareRoleIds = "odd";
    const event = await makeEvent(5);
    const ash = await apply(event.id, "Ash", fakeUserId(1));
    await decideApplication(decide, (await findReview(database.db, event.id))!, { id: ash.id, status: "approved" }, keeper);
    await deliver();
    const role = (await eventRole(event.id))!;
    expect(role).toMatchObject({ state: "ready", roleId: expect.stringMatching(/^role [0-9a-f-]{36}\/x$/) });
    expect(holders(role.roleId!)).toEqual([fakeUserId(1)]);
    // Taken back, and the role kept, not looked for (or made) again.
    await decideApplication(decide, (await findReview(database.db, event.id))!, { id: ash.id, status: "rejected" }, keeper);
    await deliver();
    expect(holders(role.roleId!)).toEqual([]);
    expect(fake.calls.createRole).toBe(1);
    const rolePaths = fake.requests.filter((request) => request.path.includes("/roles/role ")).map((request) => request.rawPath ?? "");
    expect(rolePaths.length).toBeGreaterThanOrEqual(2);
    expect(rolePaths.every((raw) => raw.includes("%20") && raw.includes("%2F"))).toBe(true);
    expect(fake.requests.map(requestProblem).filter((problem) => problem !== null)).toEqual([]);
  });

  it("deletes the role in VRChat with an event deleted from the Sanctum", async () => {
    const event = await makeEvent(5);
    const ash = await apply(event.id, "Ash", fakeUserId(1));
    await decideApplication(decide, (await findReview(database.db, event.id))!, { id: ash.id, status: "approved" }, keeper);
    await deliver();
    const roleId = (await eventRole(event.id))!.roleId!;
    expect(holders(roleId)).toEqual([fakeUserId(1)]);
    expect(await deleteEventWithRole(database.db, event.id, new Date())).toBe(true);
    await deliver();
    expect(fake.group.roles.some((role) => role.id === roleId)).toBe(false);
    expect(fake.roleWrites.map((write) => write.kind)).toEqual(["create", "give", "delete"]);
  });
});
