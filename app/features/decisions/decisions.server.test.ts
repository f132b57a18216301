import { createHash } from "node:crypto";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { applications, decisionMessages, eventApplications, events } from "~/db/schema";
import { createTestDatabase, describeEachDatabase, type TestDatabase } from "../../../tests/setup/test-database";
import { inLanguage, setSiteLanguages } from "~/utils/language.server";
import { defaultDecisionMessage, renderDecisionMessage } from "./decision-messages";
import { applyDecision, getApplicationStatus, listDecisionMessages, newStatusToken, saveDecisionMessage, type DecisionContext, type MessageScope } from "./decisions.server";

const DAY = 24 * 60 * 60 * 1000;
const context = { event: "Moonlit Ball", date: "Saturday, December 5, 2026 at 8:00 PM UTC", discordInvite: "https://discord.gg/dwell" };

/** A decision's words as the flows give them: the scope's messages, read in the applicant's language. */
function contextIn(tx: Parameters<typeof listDecisionMessages>[0], scope: MessageScope): DecisionContext {
  return { wordsIn: async (language) => ({ ...context, templates: await listDecisionMessages(tx, scope, language, "en") }) };
}

describeEachDatabase("what the applicant hears back", (kind) => {
  let database: TestDatabase;
  let eventId: string;

  beforeAll(async () => {
    database = await createTestDatabase(kind);
    const [event] = await database.db
      .insert(events)
      .values({ title: "Moonlit Ball", eventDate: "2026-12-05", eventTime: "20:00", worldName: "W", applicationRequired: true })
      .returning({ id: events.id });
    eventId = event!.id;
  });
  afterAll(() => database.close());
  beforeEach(async () => {
    await database.db.delete(applications);
    await database.db.delete(eventApplications);
    await database.db.delete(decisionMessages);
  });

  async function applyToGroup(name: string, submittedAt = new Date()) {
    const status = newStatusToken();
    const [row] = await database.db
      .insert(applications)
      .values({ vrchatUsername: name, discordId: name, answers: [{ questionId: null, question: "Why?", type: "text", value: "secret answer" }], statusTokenHash: status.hash, submittedAt })
      .returning({ id: applications.id });
    return { id: row!.id, token: status.token };
  }

  async function decide(id: string, status: "approved" | "rejected", at: Date, eventKind: "group" | "event" = "group") {
    const table = eventKind === "group" ? applications : eventApplications;
    await database.db.transaction(async (tx) => {
      await tx.update(table).set({ status, reviewedAt: at }).where(eq(table.id, id));
      const [row] = eventKind === "event" ? await tx.select({ eventId: eventApplications.eventId }).from(eventApplications).where(eq(eventApplications.id, id)) : [];
      await applyDecision(tx, { kind: eventKind, id, status }, contextIn(tx, row ? { kind: "event", eventId: row.eventId } : { kind: "group" }));
    });
  }

  it("keeps only the token's hash, and shows the status without the answers", async () => {
    const { id, token } = await applyToGroup("Moth");
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const [row] = await database.db.select().from(applications).where(eq(applications.id, id));
    expect(row!.statusTokenHash).toBe(createHash("sha256").update(token).digest("hex"));
    expect(JSON.stringify(row)).not.toContain(token);
    const status = await getApplicationStatus(database.db, token, new Date());
    expect(status).toMatchObject({ kind: "group", status: "pending", message: null, decidedAt: null });
    expect(JSON.stringify(status)).not.toContain("secret answer");
    expect(await getApplicationStatus(database.db, `${token.slice(0, -1)}x`, new Date())).toBeNull();
    expect(await getApplicationStatus(database.db, "short", new Date())).toBeNull();
  });

  it("writes the decision message once, when decided, and shows it for 90 days after", async () => {
    const { id, token } = await applyToGroup("Moth", new Date(Date.now() - 200 * DAY));
    // Still pending after 200 days: the link keeps working.
    expect(await getApplicationStatus(database.db, token, new Date())).toMatchObject({ status: "pending" });
    const decidedAt = new Date();
    await decide(id, "approved", decidedAt);
    const message = renderDecisionMessage(defaultDecisionMessage("group", "approved"), { username: "Moth", ...context });
    expect(message).toContain("Welcome among the Dwellers, Moth!");
    expect(message).toContain("https://discord.gg/dwell");
    expect(await getApplicationStatus(database.db, token, new Date(decidedAt.getTime() + 89 * DAY))).toMatchObject({ status: "approved", message });
    expect(await getApplicationStatus(database.db, token, new Date(decidedAt.getTime() + 91 * DAY))).toBeNull();
    // Editing the message later does not change what this applicant was told.
    await saveDecisionMessage(database.db, { kind: "group" }, "approved", "en", "Something else, {username}");
    expect(await getApplicationStatus(database.db, token, new Date())).toMatchObject({ message });
  });

  it("sends Discord the applicant's own words as text, never as Markdown", async () => {
    const name = "[Free Nitro](https://evil.example) **now**";
    const { id } = await applyToGroup(name);
    const decided = await database.db.transaction(async (tx) => {
      await tx.update(applications).set({ status: "approved", reviewedAt: new Date() }).where(eq(applications.id, id));
      return applyDecision(tx, { kind: "group", id, status: "approved" }, contextIn(tx, { kind: "group" }));
    });
    // The applicant's status page reads their name as they wrote it; the direct message escapes it.
    expect(decided.message).toContain(`Welcome among the Dwellers, ${name}!`);
    expect(decided.directMessage).toContain("Welcome among the Dwellers, \\[Free Nitro\\]\\(https\\:\\/\\/evil\\.example\\) \\*\\*now\\*\\*!");
    // The message's own links (the admins' words) are left to work.
    expect(decided.directMessage).toContain("https://discord.gg/dwell");
  });

  describe("in the language the applicant applied in", () => {
    beforeEach(() => setSiteLanguages(["en", "ja"]));
    afterEach(() => setSiteLanguages(["en"]));

    async function applyInJapanese(name: string) {
      const status = newStatusToken();
      const [row] = await database.db
        .insert(applications)
        .values({ vrchatUsername: name, discordId: name, answers: [], statusTokenHash: status.hash, language: "ja" })
        .returning({ id: applications.id });
      return { id: row!.id, token: status.token };
    }

    it("sends the catalogue's Japanese message when staff wrote none", async () => {
      const { id, token } = await applyInJapanese("Hotaru");
      await decide(id, "approved", new Date());
      const status = await getApplicationStatus(database.db, token, new Date());
      expect(status).toMatchObject({ language: "ja", messageLanguage: "ja" });
      expect(status!.message).toBe("ようこそDwellersへ、Hotaruさん！儀式は完了し、あなたの申請は承認されました。VRChatでグループの招待を受け取り、Discordでもぜひ会いに来てください：https://discord.gg/dwell");
    });

    it("sends the staff's Japanese text, else their text in the default language (and says which)", async () => {
      await saveDecisionMessage(database.db, { kind: "group" }, "rejected", "en", "Not this moon, {username}.");
      const first = await applyInJapanese("Tsuki");
      await decide(first.id, "rejected", new Date());
      // Written only in English: the Japanese applicant reads the English text, and the page can say so.
      expect(await getApplicationStatus(database.db, first.token, new Date())).toMatchObject({ message: "Not this moon, Tsuki.", messageLanguage: "en", language: "ja" });
      await saveDecisionMessage(database.db, { kind: "group" }, "rejected", "ja", "{username}さん、今回は見送らせてください。");
      const second = await applyInJapanese("Hoshi");
      await decide(second.id, "rejected", new Date());
      expect(await getApplicationStatus(database.db, second.token, new Date())).toMatchObject({ message: "Hoshiさん、今回は見送らせてください。", messageLanguage: "ja" });
      // The editor's view of each language: English is the group's own; Japanese its own too now.
      const english = await listDecisionMessages(database.db, { kind: "group" }, "en", "en");
      const japanese = await listDecisionMessages(database.db, { kind: "group" }, "ja", "en");
      expect(english[1]).toMatchObject({ own: true, language: "en" });
      expect(japanese[1]).toMatchObject({ own: true, language: "ja", body: "{username}さん、今回は見送らせてください。" });
      // An empty name reads as the message's language's word for a guest.
      expect(inLanguage("ja", () => renderDecisionMessage("{username}さん", { ...context, username: " " }))).toBe("ゲストさん");
    });

    it("writes to an applicant whose language the site no longer offers in the default one", async () => {
      const { id, token } = await applyInJapanese("Kaze");
      setSiteLanguages(["en"]);
      await decide(id, "approved", new Date());
      expect(await getApplicationStatus(database.db, token, new Date())).toMatchObject({ messageLanguage: "en" });
      expect((await getApplicationStatus(database.db, token, new Date()))!.message).toContain("Welcome among the Dwellers, Kaze!");
    });
  });

  it("hides an application marked as spam", async () => {
    const { id, token } = await applyToGroup("Spam");
    await database.db.update(applications).set({ spamAt: new Date() }).where(eq(applications.id, id));
    expect(await getApplicationStatus(database.db, token, new Date())).toBeNull();
  });

  it("gives an event its own message, else every event's, else the default", async () => {
    const status = newStatusToken();
    const [row] = await database.db
      .insert(eventApplications)
      .values({ eventId, vrchatUsername: "Lark", discordId: "lark", statusTokenHash: status.hash })
      .returning({ id: eventApplications.id });
    expect((await listDecisionMessages(database.db, { kind: "event", eventId }, "en", "en"))[0]).toEqual({
      outcome: "approved",
      body: "Good news, {username}: your place at {event} is confirmed. We gather on {date}. Watch the Dwellers' Discord for the instance invite: {discord_invite}",
      language: "en",
      own: false,
    });
    await saveDecisionMessage(database.db, { kind: "event" }, "rejected", "en", "Every event says no to {username}.");
    await saveDecisionMessage(database.db, { kind: "event", eventId }, "rejected", "en", "  {event} on {date} is full, {username}. {unknown} ");
    expect((await listDecisionMessages(database.db, { kind: "event" }, "en", "en"))[1]).toMatchObject({ body: "Every event says no to {username}.", own: true });
    await decide(row!.id, "rejected", new Date(), "event");
    expect(await getApplicationStatus(database.db, status.token, new Date())).toMatchObject({
      kind: "event",
      eventTitle: "Moonlit Ball",
      status: "rejected",
      message: "Moonlit Ball on Saturday, December 5, 2026 at 8:00 PM UTC is full, Lark. {unknown}",
    });
    // Emptied, the event's own message gives way to every event's.
    await saveDecisionMessage(database.db, { kind: "event", eventId }, "rejected", "en", "");
    expect((await listDecisionMessages(database.db, { kind: "event", eventId }, "en", "en"))[1]).toEqual({ outcome: "rejected", body: "Every event says no to {username}.", language: "en", own: false });
    // Back to pending: the message is gone until the next decision.
    await database.db.transaction((tx) => applyDecision(tx, { kind: "event", id: row!.id, status: "pending" }, contextIn(tx, { kind: "event", eventId })));
    const [after] = await database.db.select({ message: eventApplications.decisionMessage }).from(eventApplications).where(eq(eventApplications.id, row!.id));
    expect(after!.message).toBeNull();
  });
});

it("fills in its own placeholders only: {constructor} and the like stay as written", () => {
  const text = renderDecisionMessage("{constructor} {toString} {__proto__} {username} {hasOwnProperty}", { username: "Moth", ...context });
  expect(text).toBe("{constructor} {toString} {__proto__} Moth {hasOwnProperty}");
});
