import { eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, expect, it } from "vitest";
import { applicationAuditLog, applications, eventApplications, events } from "~/db/schema";
import { createTestDatabase, describeEachDatabase, type TestDatabase } from "../../../tests/setup/test-database";
import { getLinkTarget, linkAccount, recordActionOutcome } from "./linked-accounts.server";

describeEachDatabase("linked accounts", (kind) => {
  let database: TestDatabase;
  let groupId: string;
  let eventApplicationId: string;
  let eventId: string;
  const admin = { id: null, name: "Keeper" };
  const moth = { userId: "usr_0b0b0b0b-1c1c-4d2d-8e3e-4f4f4f4f4f4f", displayName: "Moth" };

  beforeAll(async () => {
    database = await createTestDatabase(kind);
  });
  afterAll(() => database.close());
  beforeEach(async () => {
    await database.db.delete(applicationAuditLog);
    await database.db.delete(applications);
    await database.db.delete(events);
    [{ id: groupId }] = (await database.db.insert(applications).values({ vrchatUsername: "Moth", discordId: "moth" }).returning({ id: applications.id })) as [{ id: string }];
    const [event] = await database.db.insert(events).values({ title: "Ball", eventDate: "2026-12-01", eventTime: "20:00", worldName: "W" }).returning({ id: events.id });
    eventId = event!.id;
    [{ id: eventApplicationId }] = (await database.db
      .insert(eventApplications)
      .values({ eventId: event!.id, vrchatUsername: "Lark", discordId: "lark" })
      .returning({ id: eventApplications.id })) as [{ id: string }];
  });

  const history = async (id: string) =>
    (await database.db.select().from(applicationAuditLog).where(eq(applicationAuditLog.applicationId, id))).map((row) => `${row.actorName}: ${row.field} ${row.fromValue ?? "-"} → ${row.toValue}`);

  it("links, keeps an admin's choice from the automatic link, and unlinks, each in the history", async () => {
    expect(await linkAccount(database.db, "group", groupId, "vrchat", moth, admin)).toBe(true);
    expect(await linkAccount(database.db, "group", groupId, "vrchat", moth, admin)).toBe(false);
    const other = { userId: "usr_1b0b0b0b-1c1c-4d2d-8e3e-4f4f4f4f4f4f", displayName: "Other" };
    expect(await linkAccount(database.db, "group", groupId, "vrchat", other, { id: null, name: "auto" }, { onlyIfUnlinked: true })).toBe(false);
    expect(await getLinkTarget(database.db, { kind: "group" }, groupId)).toMatchObject({ vrchatUsername: "Moth", discordHandle: "moth", vrchatUserId: moth.userId, discordUserId: null });
    expect(await linkAccount(database.db, "group", groupId, "vrchat", null, admin)).toBe(true);
    expect(await history(groupId)).toEqual([
      `Keeper: vrchat - → linked to Moth (${moth.userId})`,
      `Keeper: vrchat Moth (${moth.userId}) → unlinked`,
    ]);
  });

  it("links an event application's Discord and VRChat accounts, each once", async () => {
    expect(await linkAccount(database.db, "event", eventApplicationId, "vrchat", moth, admin)).toBe(true);
    expect(await linkAccount(database.db, "event", eventApplicationId, "vrchat", moth, admin)).toBe(false);
    expect(await linkAccount(database.db, "event", eventApplicationId, "discord", { userId: "300000000000000001", displayName: "Lark" }, admin)).toBe(true);
    expect(await getLinkTarget(database.db, { kind: "event", eventId }, eventApplicationId)).toMatchObject({ discordUserId: "300000000000000001", vrchatUserId: moth.userId });
    expect(await getLinkTarget(database.db, { kind: "group" }, eventApplicationId)).toBeNull();
    // Under another event's path, the application is not found.
    expect(await getLinkTarget(database.db, { kind: "event", eventId: "00000000-0000-4000-8000-000000000000" }, eventApplicationId)).toBeNull();
    expect(await linkAccount(database.db, "group", "not-an-id", "discord", null, admin)).toBe(false);
  });

  it("writes an action's outcome under the admin who decided, and ignores a job it cannot read", async () => {
    const payload = { applicationKind: "group", applicationId: groupId, userId: moth.userId, actor: { id: "not-a-profile", name: "Keeper" } };
    await recordActionOutcome(database.db, "vrchat", payload, "Invite sent");
    await recordActionOutcome(database.db, "discord", { nonsense: true }, "Lost");
    expect(await history(groupId)).toEqual(["Keeper: vrchat - → Invite sent"]);
  });
});
