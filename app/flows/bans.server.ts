/**
 * A ban, wherever it is made (the Bans page; later a card, a join request): recorded in Dwell's list,
 * sent to VRChat (`POST /groups/{groupId}/bans`) and, when the person's Discord account is known and
 * the bot is there, to Discord (`PUT /guilds/{guildId}/bans/{userId}`, with the reason), each as an
 * outbox job (paced, sent once, its outcome shown); and their open applications rejected through
 * flows/decide, as a staff member's rejection. An unban lifts it in the same places. The group's own
 * list in VRChat is read on a schedule, so bans made there are known too.
 */
import { and, eq, gte, inArray, isNull, or, sql } from "drizzle-orm";
import type { Database } from "~/db/db.server";
import { applications, eventApplications, outbox } from "~/db/schema";
import { getSiteSettings } from "~/features/accounts/team.server";
import { addBan, banInForce, liftBan, syncVRChatBans, type Ban } from "~/features/bans/bans.server";
import type { VRChatMembership } from "~/features/vrchat/vrchat-membership.server";
import { decideApplication, decideApplications, deciderName, findReview, type DecideServices, type Decider } from "./decide.server";

/** How often VRChat's ban list is read. */
export const BANS_READ_MS = 10 * 60_000;

/**
 * The scheduled read of VRChat's ban list (pages of 100, up to 10). A person Dwell is unbanning is
 * still on VRChat's list until the unban job is carried out: they are not a new ban made in VRChat.
 * The unbans are looked up after the list is read (its pages are paced, so that takes seconds):
 * those still pending, and those carried out since the read began, include an unban made in Dwell
 * while the list was being read.
 */
export async function readVRChatBans(db: Database, membership: VRChatMembership, now: Date) {
  const asked = new Date();
  const listed = await membership.bans.list(10);
  const unbans = await db
    .select({ userId: sql<string>`${outbox.payload}->>'userId'` })
    .from(outbox)
    .where(and(eq(outbox.target, "vrchat_ban"), sql`${outbox.payload}->>'action' = 'unban'`, or(eq(outbox.status, "pending"), gte(outbox.deliveredAt, asked))));
  const unbanning = new Set(unbans.map((job) => job.userId));
  return syncVRChatBans(db, listed.filter((ban) => !unbanning.has(ban.userId)), listed.length < 1_000, now);
}

export interface Person {
  vrchatUserId: string | null;
  discordUserId: string | null;
  displayName: string;
}

export type BanOutcome = { kind: "banned"; ban: Ban; rejected: number } | { kind: "already"; ban: Ban };

type Tx = Parameters<Parameters<Database["transaction"]>[0]>[0];

/** The jobs that carry a ban (or unban) to VRChat and Discord, where each can act. */
async function queueBanJobs(tx: Tx, services: DecideServices, ban: Ban, action: "ban" | "unban", actor: { id: string; name: string }, now: Date) {
  const jobs = [
    ...(ban.vrchatUserId && services.vrchat.membershipActions
      ? [{ target: "vrchat_ban" as const, payload: { action, banId: ban.id, userId: ban.vrchatUserId, actor } }]
      : []),
    ...(ban.discordUserId && services.discord ? [{ target: "discord_ban" as const, payload: { action, banId: ban.id, userId: ban.discordUserId, reason: ban.reason, actor } }] : []),
  ];
  if (jobs.length > 0) await tx.insert(outbox).values(jobs.map((job) => ({ ...job, sourceId: ban.id, nextAttemptAt: now })));
  return jobs.length;
}

/** Their applications still open (the group's pending, events' pending or waitlisted), by review. */
async function openApplicationsOf(db: Database, person: Person) {
  const byGroup = (table: typeof applications | typeof eventApplications) =>
    or(...(person.vrchatUserId ? [eq(table.vrchatUserId, person.vrchatUserId)] : []), ...(person.discordUserId ? [eq(table.discordUserId, person.discordUserId)] : []));
  const group = await db
    .select({ id: applications.id })
    .from(applications)
    .where(and(byGroup(applications), eq(applications.status, "pending"), isNull(applications.spamAt)));
  const event = await db
    .select({ id: eventApplications.id, eventId: eventApplications.eventId })
    .from(eventApplications)
    .where(and(byGroup(eventApplications), inArray(eventApplications.status, ["pending", "waitlist"]), isNull(eventApplications.spamAt)));
  return { group: group.map((row) => row.id), events: Map.groupBy(event, (row) => row.eventId) };
}

/** Bans a person: recorded, sent to VRChat and Discord, their open applications rejected. */
export async function banPerson(services: DecideServices, person: Person, reason: string | null, decider: Decider): Promise<BanOutcome> {
  const now = new Date();
  const actor = { id: decider.id, name: deciderName(decider) };
  const added = await services.db.transaction(async (tx) => {
    const result = await addBan(tx, person, reason, { id: decider.id || null, name: actor.name }, now);
    if (result.kind === "banned") await queueBanJobs(tx, services, result.ban, "ban", actor, now);
    return result;
  });
  if (added.kind === "already") return added;
  services.wake();
  let rejected = 0;
  const open = await openApplicationsOf(services.db, person);
  if (open.group.length > 0) {
    const outcome = await decideApplications(services, (await findReview(services.db, undefined))!, { ids: open.group, status: "rejected" }, decider);
    if (outcome.kind === "decided") rejected += outcome.changed;
  }
  for (const [eventId, rows] of open.events) {
    const review = await findReview(services.db, eventId);
    if (!review) continue;
    const outcome = await decideApplications(services, review, { ids: rows.map((row) => row.id), status: "rejected" }, decider);
    if (outcome.kind === "decided") rejected += outcome.changed;
  }
  return { kind: "banned", ban: added.ban, rejected };
}

/** Lifts a ban in Dwell, VRChat and Discord. Null when it was not in force. */
export async function unbanPerson(services: DecideServices, banId: string, decider: Decider): Promise<Ban | null> {
  const now = new Date();
  const actor = { id: decider.id, name: deciderName(decider) };
  const lifted = await services.db.transaction(async (tx) => {
    const ban = await liftBan(tx, banId, actor.name, now);
    if (ban) await queueBanJobs(tx, services, ban, "unban", actor, now);
    return ban;
  });
  if (lifted) services.wake();
  return lifted;
}

/** Who rejects a banned person's new application, in its history. */
export const BAN_LIST_DECIDER: Decider = { id: "", username: "Dwell (the ban list)", via: "rule", role: null };

/**
 * A new application from a banned person (by its VRChat account, else its Discord account): rejected
 * as it arrives when the owner chose so; otherwise its card says who banned them, when and why.
 */
export async function rejectIfBanned(services: DecideServices, application: { kind: "group" | "event"; id: string; eventId: string | null }): Promise<boolean> {
  if (!(await getSiteSettings(services.db)).rejectBanned) return false;
  const table = application.kind === "event" ? eventApplications : applications;
  const [person] = await services.db.select({ vrchatUserId: table.vrchatUserId, discordUserId: table.discordUserId }).from(table).where(eq(table.id, application.id));
  if (!person || !(await banInForce(services.db, person))) return false;
  const review = await findReview(services.db, application.eventId ?? undefined);
  if (!review) return false;
  return (await decideApplication(services, review, { id: application.id, status: "rejected" }, BAN_LIST_DECIDER)).kind === "decided";
}

/**
 * 'Ban' on an application's card: the applicant, by the accounts linked to the application (VRChat,
 * Discord). An application with neither linked cannot be banned from its card: a name is only a claim.
 */
export async function banApplicant(
  services: DecideServices,
  application: { kind: "group" | "event"; id: string; eventId: string | null },
  reason: string,
  decider: Decider,
): Promise<BanOutcome | { kind: "missing" } | { kind: "no-account" }> {
  const table = application.kind === "event" ? eventApplications : applications;
  const [row] = await services.db
    .select({ vrchatUserId: table.vrchatUserId, discordUserId: table.discordUserId, name: table.vrchatUsername, eventId: application.kind === "event" ? eventApplications.eventId : applications.id })
    .from(table)
    .where(eq(table.id, application.id));
  if (!row || (application.kind === "event" && row.eventId !== application.eventId)) return { kind: "missing" };
  if (!row.vrchatUserId && !row.discordUserId) return { kind: "no-account" };
  return banPerson(services, { vrchatUserId: row.vrchatUserId, discordUserId: row.discordUserId, displayName: row.name }, reason, decider);
}
