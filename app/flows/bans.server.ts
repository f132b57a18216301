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
import { isConfirmedLink } from "~/db/enums";
import { applications, eventApplications, outbox, type BanReach } from "~/db/schema";
import { linkAccountIn } from "~/features/applications/linked-accounts.server";
import { getSiteSettings } from "~/features/accounts/site-settings.server";
import { addBan, banInForce, liftBan, syncVRChatBans, type Ban } from "~/features/bans/bans.server";
import type { VRChatMembership } from "~/features/vrchat/vrchat-membership.server";
import { recordListRead } from "~/features/vrchat/vrchat-list-reads.server";
import { decideApplication, decideApplications, deciderName, findReview, type DecideServices, type Decider } from "./decide.server";
import { watchModerators } from "./tripwire-watch.server";
import { log } from "~/utils/log.server";

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
  const read = await membership.bans.list(10);
  await recordListRead(db, "bans", read, now);
  const listed = read.entries;
  const unbans = await db
    .select({ userId: sql<string>`${outbox.payload}->>'userId'` })
    .from(outbox)
    .where(and(eq(outbox.target, "vrchat_ban"), sql`${outbox.payload}->>'action' = 'unban'`, or(eq(outbox.status, "pending"), gte(outbox.deliveredAt, asked))));
  const unbanning = new Set(unbans.map((job) => job.userId));
  return syncVRChatBans(db, listed.filter((ban) => !unbanning.has(ban.userId)), listed.length + read.unreadable.length < 1_000, now);
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

/**
 * Their applications still open (the group's pending, events' pending or waitlisted), by review. A
 * ban held on the site only reaches only applications that claim the same accounts (matched by
 * name), never one whose account is proven or confirmed (see features/bans' BannedWho).
 */
async function openApplicationsOf(db: Database, person: Person, reach: BanReach) {
  const claim = (how: typeof applications.vrchatLinkedHow | typeof eventApplications.vrchatLinkedHow | typeof applications.discordLinkedHow | typeof eventApplications.discordLinkedHow) =>
    reach === "site" ? sql`coalesce(${how} not in ('proven', 'staff'), true)` : sql`true`;
  const byGroup = (table: typeof applications | typeof eventApplications) =>
    or(
      ...(person.vrchatUserId ? [and(eq(table.vrchatUserId, person.vrchatUserId), claim(table.vrchatLinkedHow))] : []),
      ...(person.discordUserId ? [and(eq(table.discordUserId, person.discordUserId), claim(table.discordLinkedHow))] : []),
    );
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

/**
 * Bans a person: recorded, sent to VRChat and Discord, their open applications rejected. `site`: the
 * accounts were matched by name only and no one confirmed them: the ban is recorded and the claims'
 * applications rejected, but nothing reaches VRChat or Discord. `beforeJobs` runs in the ban's
 * transaction (a confirmation of the accounts it names).
 */
export async function banPerson(
  services: DecideServices,
  person: Person,
  reason: string | null,
  decider: Decider,
  { reach = "everywhere", beforeJobs }: { reach?: BanReach; beforeJobs?: (tx: Tx) => Promise<void> } = {},
): Promise<BanOutcome> {
  const now = new Date();
  const actor = { id: decider.id, name: deciderName(decider) };
  const added = await services.db.transaction(async (tx) => {
    await beforeJobs?.(tx);
    const result = await addBan(tx, person, reason, { id: decider.id || null, name: actor.name }, now, reach);
    if (result.kind === "banned" && result.ban.reach === "everywhere") await queueBanJobs(tx, services, result.ban, "ban", actor, now);
    return result;
  });
  if (added.kind === "already") return added;
  services.wake();
  // A ban is counted at once: a runaway moderator is stopped at the limit, not minutes later.
  await watchModerators(services, now).catch((error: unknown) => log.error("the tripwire could not look", { error }));
  let rejected = 0;
  const open = await openApplicationsOf(services.db, person, added.ban.reach);
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
    const ban = await liftBan(tx, banId, { id: decider.id || null, name: actor.name }, now);
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
export async function rejectIfBanned(
  services: DecideServices,
  application: { kind: "group" | "event"; id: string; eventId: string | null },
  /** The accounts the caller just stored on it, when it knows them: with none, a ban cannot hold and nothing is read. */
  stored?: { vrchatUserId: string | null; discordUserId: string | null },
): Promise<boolean> {
  if (stored && !stored.vrchatUserId && !stored.discordUserId) return false;
  if (!(await getSiteSettings(services.db)).rejectBanned) return false;
  const table = application.kind === "event" ? eventApplications : applications;
  const [person] = await services.db
    .select({ vrchatUserId: table.vrchatUserId, discordUserId: table.discordUserId, vrchatLinkedHow: table.vrchatLinkedHow, discordLinkedHow: table.discordLinkedHow })
    .from(table)
    .where(eq(table.id, application.id));
  if (!person || !(await banInForce(services.db, person))) return false;
  const review = await findReview(services.db, application.eventId ?? undefined);
  if (!review) return false;
  return (await decideApplication(services, review, { id: application.id, status: "rejected" }, BAN_LIST_DECIDER)).kind === "decided";
}

/**
 * 'Ban' on an application's card: the applicant, by the accounts linked to the application (VRChat,
 * Discord). An application with neither linked cannot be banned from its card: a name is only a claim.
 * An account matched by name only may belong to someone else (the name's true owner): the ban reaches
 * VRChat and Discord only when the staff member confirmed, in the dialog that showed it, that it is
 * this person's (`confirmed`, the account's id); that confirmation links it as theirs. Otherwise the
 * ban holds on the site only.
 */
export async function banApplicant(
  services: DecideServices,
  application: { kind: "group" | "event"; id: string; eventId: string | null },
  reason: string,
  decider: Decider,
  confirmed: { vrchatUserId?: string | null; discordUserId?: string | null } = {},
): Promise<BanOutcome | { kind: "missing" } | { kind: "no-account" }> {
  const table = application.kind === "event" ? eventApplications : applications;
  const [row] = await services.db
    .select({
      vrchatUserId: table.vrchatUserId,
      vrchatDisplayName: table.vrchatDisplayName,
      vrchatLinkedHow: table.vrchatLinkedHow,
      discordUserId: table.discordUserId,
      discordDisplayName: table.discordDisplayName,
      discordLinkedHow: table.discordLinkedHow,
      name: table.vrchatUsername,
      eventId: application.kind === "event" ? eventApplications.eventId : applications.id,
    })
    .from(table)
    .where(eq(table.id, application.id));
  if (!row || (application.kind === "event" && row.eventId !== application.eventId)) return { kind: "missing" };
  if (!row.vrchatUserId && !row.discordUserId) return { kind: "no-account" };
  // Each account matched by name only, and whether the staff member confirmed that very account.
  const claims = [
    ...(row.vrchatUserId && !isConfirmedLink(row.vrchatLinkedHow) ? [{ service: "vrchat" as const, userId: row.vrchatUserId, displayName: row.vrchatDisplayName ?? row.name, confirmed: confirmed.vrchatUserId === row.vrchatUserId }] : []),
    ...(row.discordUserId && !isConfirmedLink(row.discordLinkedHow) ? [{ service: "discord" as const, userId: row.discordUserId, displayName: row.discordDisplayName ?? row.discordUserId, confirmed: confirmed.discordUserId === row.discordUserId }] : []),
  ];
  const reach: BanReach = claims.every((claim) => claim.confirmed) ? "everywhere" : "site";
  const by = { id: decider.id || null, name: `${deciderName(decider)} (confirmed at a ban)` };
  const person = { vrchatUserId: row.vrchatUserId, discordUserId: row.discordUserId, displayName: row.name };
  return banPerson(services, person, reason, decider, {
    reach,
    beforeJobs: async (tx) => {
      if (reach !== "everywhere") return;
      for (const claim of claims) await linkAccountIn(tx, application.kind, application.id, claim.service, { userId: claim.userId, displayName: claim.displayName }, by, { how: "staff" });
    },
  });
}
