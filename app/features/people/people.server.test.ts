/**
 * People's files on a real database: which file a key opens (merges, a Discord account seen beside
 * a VRChat account, an application linked since), what a file gathers, merging and splitting as a
 * tree with its history kept, notes under merged keys, and the search.
 */
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, expect, it } from "vitest";
import { applications, bans, eventApplications, events, joinRequests, personMerges, personNotes } from "~/db/schema";
import { createTestDatabase, describeEachDatabase, type TestDatabase } from "../../../tests/setup/test-database";
import { addNote, mergeFiles, resolvePersonKey, splitFile } from "./people.server";
import { readPersonFile, searchPeople } from "./person-file.server";

const usr = (n: number) => `usr_${String(n).padStart(8, "0")}-aaaa-4bbb-8ccc-${String(n).padStart(12, "0")}`;
const HERON = { vrchat: usr(1), discord: "300000000000000001" };
const STAFF = { id: null as unknown as string, name: "keeper" };

describeEachDatabase("people's files", (kind) => {
  let database: TestDatabase;
  let eventIds: string[];

  beforeAll(async () => {
    database = await createTestDatabase(kind);
  });
  afterAll(() => database.close());
  beforeEach(async () => {
    for (const table of [applications, eventApplications, events, joinRequests, bans, personMerges, personNotes]) await database.db.delete(table);
    eventIds = (
      await database.db
        .insert(events)
        .values([1, 2, 3].map((n) => ({ title: `Night ${n}`, eventDate: `2026-0${n}-10`, eventTime: "20:00:00", worldName: "The Hearth", applicationRequired: true })))
        .returning({ id: events.id })
    ).map((row) => row.id);
  });

  const now = new Date("2026-11-27T12:00:00Z");

  it("gathers a person's applications, attendance, join requests, bans and notes by their VRChat account", async () => {
    const db = database.db;
    await db.insert(applications).values({ vrchatUsername: "Heron", discordId: "heron", vrchatUserId: HERON.vrchat, vrchatDisplayName: "Grey Heron", vrchatLinkedHow: "proven", discordUserId: HERON.discord, status: "approved" });
    await db.insert(eventApplications).values([
      { eventId: eventIds[0]!, vrchatUsername: "Heron", vrchatUserId: HERON.vrchat, status: "approved", attendance: "attended" },
      { eventId: eventIds[1]!, vrchatUsername: "Heron", vrchatUserId: HERON.vrchat, status: "approved", attendance: "no_show" },
      // Under their Discord account only: the same person, for it was seen beside their VRChat account.
      { eventId: eventIds[2]!, vrchatUsername: "heron?", discordUserId: HERON.discord, status: "approved", attendance: "attended" },
      // Someone else's.
      { eventId: eventIds[2]!, vrchatUsername: "Stork", vrchatUserId: usr(2), status: "approved", attendance: "no_show" },
    ]);
    await db.insert(joinRequests).values({ vrchatUserId: HERON.vrchat, displayName: "Grey Heron" });
    await db.insert(bans).values({ vrchatUserId: HERON.vrchat, displayName: "Grey Heron", source: "dwell", bannedBy: "keeper", reason: "Ate the fish." });
    await addNote(db, `discord-${HERON.discord}`, "Kind to newcomers.", STAFF, now);

    expect(await resolvePersonKey(db, `discord-${HERON.discord}`)).toBe(`vrchat-${HERON.vrchat}`);
    const file = await readPersonFile(db, `vrchat-${HERON.vrchat}`);
    expect(file.name).toBe("Grey Heron");
    expect(file.applications.map((application) => application.event?.title ?? "group").sort()).toEqual(["Night 1", "Night 2", "Night 3", "group"]);
    expect(file.attendance).toEqual({ attended: 2, noShows: 1 });
    expect(file.joinRequests).toHaveLength(1);
    expect(file.bans.map((ban) => ban.reason)).toEqual(["Ate the fish."]);
    expect(file.notes.map((note) => note.body)).toEqual(["Kind to newcomers."]);
    expect(file.keys).toEqual([{ kind: "vrchat", id: HERON.vrchat }, { kind: "discord", id: HERON.discord }]);
  });

  it("merges two files into one and splits them again, keeping both in the history", async () => {
    const db = database.db;
    const [lone] = await db.insert(applications).values({ vrchatUsername: "Lone Heron", discordId: "lone" }).returning({ id: applications.id });
    await db.insert(eventApplications).values({ eventId: eventIds[0]!, vrchatUsername: "Heron", vrchatUserId: HERON.vrchat, status: "approved", attendance: "attended" });
    const loneKey = `application-${lone!.id}`;
    const heronKey = `vrchat-${HERON.vrchat}`;
    expect(await resolvePersonKey(db, loneKey)).toBe(loneKey);
    expect((await readPersonFile(db, loneKey)).applications.map((application) => application.vrchatUsername)).toEqual(["Lone Heron"]);

    expect(await mergeFiles(db, loneKey, heronKey, STAFF, now)).toEqual({ kind: "merged" });
    expect(await resolvePersonKey(db, loneKey)).toBe(heronKey);
    expect((await readPersonFile(db, heronKey)).applications).toHaveLength(2);
    // Already one file, whichever way round.
    expect(await mergeFiles(db, heronKey, loneKey, STAFF, now)).toEqual({ kind: "same" });

    // A third file merged into the merged one joins the same tree; splitting the middle takes its branch along.
    const stork = `vrchat-${usr(2)}`;
    await db.insert(eventApplications).values({ eventId: eventIds[1]!, vrchatUsername: "Stork", vrchatUserId: usr(2), status: "pending" });
    expect(await mergeFiles(db, stork, loneKey, STAFF, now)).toEqual({ kind: "merged" });
    expect((await readPersonFile(db, heronKey)).applications).toHaveLength(3);
    expect(await splitFile(db, stork, STAFF, now)).toEqual({ intoKey: heronKey });
    expect(await resolvePersonKey(db, stork)).toBe(stork);
    expect(await splitFile(db, loneKey, STAFF, now)).toEqual({ intoKey: heronKey });
    expect(await splitFile(db, loneKey, STAFF, now)).toBeNull();
    expect((await readPersonFile(db, heronKey)).applications).toHaveLength(1);
    const history = (await readPersonFile(db, loneKey)).merges;
    expect(history.map((merge) => [merge.personKey, merge.intoKey, merge.splitBy])).toEqual([
      [loneKey, heronKey, "keeper"],
    ]);
  });

  it("follows an application once it is linked, and a merge over a Discord account's own file", async () => {
    const db = database.db;
    const [row] = await db.insert(applications).values({ vrchatUsername: "Late Heron", discordId: "late" }).returning({ id: applications.id });
    await db.update(applications).set({ vrchatUserId: HERON.vrchat }).where(eq(applications.id, row!.id));
    expect(await resolvePersonKey(db, `application-${row!.id}`)).toBe(`vrchat-${HERON.vrchat}`);
    // A Discord account a merge sends elsewhere goes there, not to the VRChat account it was seen beside.
    await db.insert(eventApplications).values({ eventId: eventIds[0]!, vrchatUsername: "Heron", vrchatUserId: HERON.vrchat, discordUserId: HERON.discord });
    expect(await resolvePersonKey(db, `discord-${HERON.discord}`)).toBe(`vrchat-${HERON.vrchat}`);
    await mergeFiles(db, `discord-${HERON.discord}`, `vrchat-${usr(3)}`, STAFF, now);
    // Merging resolved it first: the Discord key's own file was the VRChat one, so that is what moved.
    expect(await resolvePersonKey(db, `vrchat-${HERON.vrchat}`)).toBe(`vrchat-${usr(3)}`);
  });

  it("finds people by VRChat name or id and Discord handle or id, one row per person", async () => {
    const db = database.db;
    await db.insert(applications).values({ vrchatUsername: "Heron", discordId: "heronhandle", vrchatUserId: HERON.vrchat, vrchatDisplayName: "Grey Heron", discordUserId: HERON.discord });
    await db.insert(eventApplications).values({ eventId: eventIds[0]!, vrchatUsername: "Heron", vrchatUserId: HERON.vrchat });
    await db.insert(joinRequests).values({ vrchatUserId: usr(4), displayName: "Heron Chick" });
    await db.insert(applications).values({ vrchatUsername: "100%_heron", discordId: "percent" });
    const names = async (query: string) => (await searchPeople(db, query)).map((person) => person.name).sort();
    expect(await names("heron")).toEqual(["100%_heron", "Grey Heron", "Heron Chick"]);
    expect(await names("HERONHANDLE")).toEqual(["Grey Heron"]);
    expect(await names(HERON.discord)).toEqual(["Grey Heron"]);
    expect(await names(usr(4))).toEqual(["Heron Chick"]);
    // A wildcard typed is a character, not a pattern.
    expect(await names("%_")).toEqual(["100%_heron"]);
    expect((await searchPeople(db, "heron")).find((person) => person.name === "Grey Heron")?.detail).toBe("group application, event application");
  });
});
