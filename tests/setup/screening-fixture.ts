/**
 * What the screening tests share (app/flows/screen-applications*.test.ts): a real database with the
 * group's form and an admin, the VRChat fake on loopback with three people knocking, the screening
 * services as the scheduled job builds them, and applications sent as the form stores them.
 */
import { eq } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, beforeEach } from "vitest";
import { applicationAuditLog, applicationQuestions, applications, bans, joinRequests, outbox, profiles, rateLimits, screeningRules, screenings, vrchatAccountFacts, vrchatProofs, vrchatSessions } from "~/db/schema";
import { answerFieldName, type FormQuestion } from "~/features/applications/answers";
import { listFormQuestions, submitApplication } from "~/features/applications/applications.server";
import { newStatusToken } from "~/features/decisions/decisions.server";
import { queueScreening } from "~/features/screening/screenings.server";
import type { RuleInput } from "~/features/screening/screening-rules";
import { createVRChatClient } from "~/features/vrchat/vrchat-client.server";
import { createVRChatMembership } from "~/features/vrchat/vrchat-membership.server";
import { databaseSessionStore } from "~/features/vrchat/vrchat-session.server";
import { linkProvenAccount } from "~/flows/decide.server";
import type { ScreeningServices } from "~/flows/screen-applications.server";
import { FAKE_GROUP_ID, FAKE_SESSION_SECRET, FAKE_USERNAME, fakeUserId, fakeVRChatAccount, startFakeVRChat, type FakeVRChat } from "../fakes/vrchat";
import { createTestDatabase, type DatabaseKind, type TestDatabase } from "./test-database";

export const KNOWN_OVER_30: RuleInput = {
  name: "Known users over 30 days",
  scope: { kind: "group" },
  conditions: [{ kind: "trust_at_least", rank: "known_user" }, { kind: "account_older_than", days: 30 }, { kind: "shows_18_plus" }],
  outcome: { kind: "approve" },
};
export const NEWCOMERS: RuleInput = { name: "Young accounts", scope: { kind: "group" }, conditions: [{ kind: "trust_at_least", rank: "visitor" }], outcome: { kind: "flag", flag: "A young account: look closely" } };
const KNOWN_TAGS = ["system_trust_basic", "system_trust_known", "system_trust_trusted"];

/** A membership client for the fake, as the server makes one; `extra` adds its options (an allowance). */
export function membershipFor(database: TestDatabase, fake: FakeVRChat, extra: { screeningCallsPerMinute?: number } = {}) {
  return createVRChatMembership({
    client: createVRChatClient({ ...fakeVRChatAccount(fake), store: databaseSessionStore(database.db, FAKE_USERNAME, FAKE_SESSION_SECRET), baseDelayMs: 5 }),
    groupId: FAKE_GROUP_ID,
    timeoutMs: 2_000,
    actionSpacingMs: 0,
    ...extra,
  });
}

/**
 * Registers the hooks of a screening suite on one database kind: the database and its form once, then
 * for each test empty tables and a new fake. The returned object reads the current test's parts.
 */
export function useScreeningFixture(kind: DatabaseKind) {
  let database: TestDatabase;
  let fake: FakeVRChat;
  let questions: FormQuestion[];
  let services: ScreeningServices;
  let keeperId = "";

  beforeAll(async () => {
    database = await createTestDatabase(kind);
    await database.db.insert(applicationQuestions).values([
      { question: "What is your VRChat username?", orderIndex: 0 },
      { question: "What is your Discord username?", orderIndex: 1 },
      { question: "How did you find the Dwellers?", questionType: "select", options: ["A friend", "Discord"], orderIndex: 2 },
    ]);
    questions = await listFormQuestions(database.db, { kind: "group" });
    const [profile] = await database.db.insert(profiles).values({ username: "keeper", email: "keeper@dwell.example", role: "admin" }).returning({ id: profiles.id });
    keeperId = profile!.id;
  });
  afterAll(() => database.close());
  beforeEach(async () => {
    for (const table of [applications, applicationAuditLog, outbox, vrchatSessions, rateLimits, screeningRules, screenings, bans, joinRequests, vrchatAccountFacts, vrchatProofs]) await database.db.delete(table);
    fake = await startFakeVRChat();
    fake.group.people.push(
      { id: fakeUserId(1), displayName: "Moth Light", status: "requested", tags: KNOWN_TAGS, dateJoined: "2023-04-01", ageVerificationStatus: "18+" },
      { id: fakeUserId(2), displayName: "Fresh Fern", status: "requested", tags: [], dateJoined: new Date().toISOString().slice(0, 10), ageVerificationStatus: "hidden" },
      { id: fakeUserId(3), displayName: "Quiet Heron", status: "requested", tags: KNOWN_TAGS, dateJoined: "2022-01-01", ageVerificationStatus: "18+" },
    );
    services = { db: database.db, vrchat: { membership: membershipFor(database, fake), membershipActions: true }, discord: null, discordInvite: null, wake: () => {}, siteOrigin: "https://dwell.example", autoApprovalsPerHour: 30 };
  });
  afterEach(() => fake.close());

  /**
   * Sends an application as the form stores it (its screening queued with it); linked by name when
   * given (its profile link under the name given), and proven when `proven` (the bio code's check).
   */
  async function apply(username: string, linked?: { userId: string; displayName: string }, found = "A friend", language?: string, proven = false) {
    const values: Record<string, string> = {
      [answerFieldName(questions[0]!.id)]: username,
      [answerFieldName(questions[1]!.id)]: `${username.replaceAll(" ", "").toLowerCase()}-d`,
      [answerFieldName(questions[2]!.id)]: found,
    };
    const now = new Date();
    const result = await submitApplication(database.db, {
      scope: { kind: "group" },
      questions,
      fields: (name) => values[name],
      now,
      statusTokenHash: newStatusToken().hash,
      language,
      vet: linked ? async () => ({ found: { check: "confirmed", account: linked } }) : undefined,
      onStored: async (tx, stored) => {
        await queueScreening(tx, { kind: "group", id: stored.id, vrchatUserId: stored.vrchatUserId }, now);
      },
    });
    if (!result.ok) throw new Error(result.message);
    const id = result.application.id;
    if (proven && linked) await linkProvenAccount(services, { kind: "group", id, eventId: null }, linked, { name: "the applicant (a code in their VRChat bio)" });
    return id;
  }

  return {
    get database() {
      return database;
    },
    get fake() {
      return fake;
    },
    get services() {
      return services;
    },
    get keeperId() {
      return keeperId;
    },
    apply,
    applyProven: (username: string, account: { userId: string; displayName: string }, language?: string) => apply(username, account, "A friend", language, true),
    /** An application's status and message, and its screening's state. */
    state: async (id: string) => {
      const [application] = await database.db.select({ status: applications.status, message: applications.decisionMessage }).from(applications).where(eq(applications.id, id));
      const [screening] = await database.db.select({ state: screenings.state, rule: screenings.ruleName, outcome: screenings.outcome, flag: screenings.flag }).from(screenings).where(eq(screenings.applicationId, id));
      return { ...application!, screening: screening ?? null };
    },
    /** The membership actions queued for VRChat. */
    jobs: async () => (await database.db.select({ payload: outbox.payload }).from(outbox).where(eq(outbox.target, "vrchat_membership"))).map((job) => job.payload as { userId: string; action: string }),
  };
}
