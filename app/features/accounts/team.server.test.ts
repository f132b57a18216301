import { eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, expect, it } from "vitest";
import { profiles, sessions, teamHistory, teamInvitations } from "~/db/schema";
import { createAuth, type Auth } from "~/utils/auth.server";
import { createTestDatabase, describeEachDatabase, type TestDatabase } from "../../../tests/setup/test-database";
import { createAccount } from "./accounts.server";
import { acceptInvitation, changeRole, getInvitation, inviteMember, listOpenInvitations, listTeam, listTeamHistory, removeMember, withdrawInvitation } from "./team.server";
import { invitationInvalid, lastOwnerMessage } from "./team-texts";

const NOW = new Date("2026-11-25T12:00:00Z");
const PASS = "a-long-team-passphrase";

describeEachDatabase("the team", (kind) => {
  let database: TestDatabase;
  let auth: Auth;
  let owner: { id: string; username: string };

  beforeAll(async () => {
    database = await createTestDatabase(kind);
    auth = createAuth({ db: database.db, publicUrl: "http://localhost", secret: "a-test-secret-that-is-long-enough-0123456789", mailer: { send: async () => {} } });
  });
  afterAll(() => database.close());
  beforeEach(async () => {
    await database.db.delete(teamInvitations);
    await database.db.delete(teamHistory);
    await database.db.delete(profiles);
    const made = await createAccount(auth, { email: "keeper@dwell.example", password: PASS, username: "keeper", role: "owner" });
    owner = { id: made.id, username: made.username };
  });

  it("invites, and the link makes the account with the invited role, once", async () => {
    const invited = await inviteMember(database.db, { email: " Sky@Dwell.example ", role: "reviewer" }, owner, NOW);
    expect(invited).toMatchObject({ ok: true, email: "sky@dwell.example", role: "reviewer" });
    if (!invited.ok) return;
    // Only the hash is stored.
    const [row] = await database.db.select().from(teamInvitations);
    expect(row!.tokenHash).not.toContain(invited.token);
    expect(await getInvitation(database.db, invited.token, NOW)).toMatchObject({ email: "sky@dwell.example", role: "reviewer" });

    const weak = await acceptInvitation(database.db, auth, { token: invited.token, username: "Sky", password: "password" }, NOW);
    expect(weak).toMatchObject({ ok: false, field: "password" });
    // A refused passphrase leaves the link usable.
    const accepted = await acceptInvitation(database.db, auth, { token: invited.token, username: "Sky", password: PASS }, NOW);
    expect(accepted).toEqual({ ok: true, email: "sky@dwell.example" });
    expect((await listTeam(database.db)).map((m) => [m.username, m.role])).toEqual([["keeper", "owner"], ["Sky", "reviewer"]]);
    expect(await acceptInvitation(database.db, auth, { token: invited.token, username: "Sky2", password: PASS }, NOW)).toEqual({ ok: false, message: invitationInvalid() });
    expect((await listTeamHistory(database.db)).map((e) => `${e.actorName} ${e.change}`)).toEqual([
      "Sky joined as Reviewer (sky@dwell.example)",
      "keeper invited sky@dwell.example as Reviewer",
    ]);
  });

  it("refuses an address already on the team, a role that does not exist, and an expired or withdrawn link", async () => {
    expect(await inviteMember(database.db, { email: "keeper@dwell.example", role: "admin" }, owner, NOW)).toEqual({ ok: false, message: "keeper@dwell.example already has an account here." });
    expect(await inviteMember(database.db, { email: "x@dwell.example", role: "king" }, owner, NOW)).toEqual({ ok: false, message: "Choose a role: Owner, Admin, Reviewer or Host." });
    expect(await inviteMember(database.db, { email: "not an address", role: "host" }, owner, NOW)).toEqual({ ok: false, message: "Enter a valid e-mail address." });
    expect(await database.db.select().from(teamInvitations)).toEqual([]);

    const old = await inviteMember(database.db, { email: "late@dwell.example", role: "host" }, owner, NOW);
    if (!old.ok) throw new Error("not invited");
    const eightDays = new Date(NOW.getTime() + 8 * 24 * 60 * 60 * 1000);
    expect(await getInvitation(database.db, old.token, eightDays)).toBeNull();
    expect(await acceptInvitation(database.db, auth, { token: old.token, username: "Late", password: PASS }, eightDays)).toEqual({ ok: false, message: invitationInvalid() });
    // A second invitation to the same address replaces the first.
    const again = await inviteMember(database.db, { email: "late@dwell.example", role: "admin" }, owner, NOW);
    if (!again.ok) throw new Error("not invited");
    expect(await getInvitation(database.db, old.token, NOW)).toBeNull();
    const open = await listOpenInvitations(database.db, NOW);
    expect(open.map((invitation) => [invitation.email, invitation.role])).toEqual([["late@dwell.example", "admin"]]);
    expect(await withdrawInvitation(database.db, open[0]!.id, owner, NOW)).toBe(true);
    expect(await withdrawInvitation(database.db, open[0]!.id, owner, NOW)).toBe(false);
    expect(await getInvitation(database.db, again.token, NOW)).toBeNull();
    expect((await listTeam(database.db)).map((m) => m.email)).toEqual(["keeper@dwell.example"]);
  });

  it("ends an owner's open invitations with their right to make them: demoted or removed", async () => {
    const second = await createAccount(auth, { email: "moth@dwell.example", password: PASS, username: "moth", role: "owner" });
    const mothActor = { id: second.id, username: second.username };
    const byMoth = await inviteMember(database.db, { email: "fern@dwell.example", role: "owner" }, mothActor, NOW);
    const alsoByMoth = await inviteMember(database.db, { email: "reed@dwell.example", role: "host" }, mothActor, NOW);
    const byKeeper = await inviteMember(database.db, { email: "sky@dwell.example", role: "reviewer" }, owner, NOW);
    if (!byMoth.ok || !alsoByMoth.ok || !byKeeper.ok) throw new Error("not invited");

    // Moth is made an admin: their invitations (an owner's among them) no longer let anyone in.
    expect(await changeRole(database.db, second.id, "admin", owner)).toEqual({ ok: true });
    expect(await getInvitation(database.db, byMoth.token, NOW)).toBeNull();
    expect(await acceptInvitation(database.db, auth, { token: byMoth.token, username: "Fern", password: PASS }, NOW)).toEqual({ ok: false, message: invitationInvalid() });
    expect((await listOpenInvitations(database.db, NOW)).map((i) => i.email)).toEqual(["sky@dwell.example"]);
    expect((await listTeamHistory(database.db)).map((e) => e.change)).toContain("closed the invitation of fern@dwell.example: moth, who made it, may no longer invite");
    // Made owner again, the closed links stay closed.
    expect(await changeRole(database.db, second.id, "owner", owner)).toEqual({ ok: true });
    expect(await getInvitation(database.db, alsoByMoth.token, NOW)).toBeNull();

    // Keeper is removed: theirs end too.
    expect(await removeMember(database.db, owner.id, mothActor)).toEqual({ ok: true });
    expect(await getInvitation(database.db, byKeeper.token, NOW)).toBeNull();
    expect(await listOpenInvitations(database.db, NOW)).toEqual([]);
  });

  it("keeps a last owner, and ends a removed member's sessions at once", async () => {
    expect(await changeRole(database.db, owner.id, "admin", owner)).toEqual({ ok: false, status: 409, message: lastOwnerMessage() });
    expect(await removeMember(database.db, owner.id, owner)).toEqual({ ok: false, status: 409, message: lastOwnerMessage() });
    const helper = await createAccount(auth, { email: "helper@dwell.example", password: PASS, username: "helper", role: "admin" });
    await database.db.insert(sessions).values({ userId: helper.id, token: "helper-session", expiresAt: new Date(NOW.getTime() + 86_400_000) });
    expect(await changeRole(database.db, helper.id, "owner", owner)).toEqual({ ok: true });
    // Now there are two owners: one may step down.
    expect(await changeRole(database.db, owner.id, "reviewer", owner)).toEqual({ ok: true });
    expect(await changeRole(database.db, helper.id, "wizard", owner)).toMatchObject({ ok: false, status: 400 });
    expect(await removeMember(database.db, helper.id, owner)).toEqual({ ok: false, status: 409, message: lastOwnerMessage() });
    await changeRole(database.db, owner.id, "owner", { id: helper.id, username: "helper" });
    expect(await removeMember(database.db, helper.id, owner)).toEqual({ ok: true });
    expect(await database.db.select().from(sessions).where(eq(sessions.userId, helper.id))).toEqual([]);
    expect((await listTeamHistory(database.db)).map((e) => e.change)[0]).toBe("removed helper (helper@dwell.example, Owner)");
  });
});
