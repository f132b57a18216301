/**
 * Reading VRChat's and Discord's audit logs into the moderation history, on a schedule: a few pages
 * at most per read (each read a fixed, small number of calls), from the newest entry down to the last
 * one held. A read that stops early (its page cap, a failure, a 429) keeps where it stopped and the
 * next read carries on from there, so a stretch not read is never taken for a quiet one. The bot's own
 * acts are left out (Dwell records them itself, with the staff member who asked), and each act's
 * moderator is known as a staff member when their account is theirs. Then the tripwire looks.
 */
import { eq, sql } from "drizzle-orm";
import type { Database } from "~/db/db.server";
import { forgetActsBefore, recordActs, staffKey, type ReadAct } from "~/db/moderation-acts.server";
import { auditLogReads } from "~/db/schema";
import type { DiscordBot } from "~/features/discord/discord-bot.server";
import { getTripwireSettings } from "~/features/moderation/tripwire.server";
import { knownVRChatNames, staffOwning } from "~/features/people/identities.server";
import { AUDIT_PAGE, type VRChatAuditLog } from "~/features/vrchat/vrchat-audit-log.server";
import { failureText } from "~/utils/failure-text.server";
import { truncate } from "~/utils/text";
import type { VRChatServices } from "~/features/vrchat/vrchat.server";
import { decideServices } from "./decide.server";
import { followRoleChanges, roleBridgeServices, type RoleBridgeServices } from "./role-bridge.server";
import { tripwireServices, type TripwireServices } from "./tripwire.server";
import { watchModerators } from "./tripwire-watch.server";

/** How often the audit logs are read. */
export const MODERATION_READ_MS = 2 * 60_000;
/** The most pages one read asks for, in each place. */
export const AUDIT_PAGES_PER_READ = 5;

type Place = "vrchat" | "discord";
interface ReadState {
  doneTo: string | null;
  sweepTop: string | null;
  sweepBelow: string | null;
}
interface Step {
  acts: ReadAct[];
  /** Members who left VRChat's group by themselves. */
  departures?: { userId: string }[];
  /** The newest mark this sweep covers: `done_to` once it is done. */
  top: string | null;
  /** Where the next page goes on from. */
  below: string | null;
  done: boolean;
}

export interface ModerationLogServices extends TripwireServices {
  auditLog: VRChatAuditLog | null;
  /** The role bridge, which follows the role changes, kicks, bans and departures read. */
  bridge: RoleBridgeServices;
}

async function stateOf(db: Database, place: Place): Promise<ReadState> {
  const [row] = await db.select().from(auditLogReads).where(eq(auditLogReads.place, place));
  return { doneTo: row?.doneTo ?? null, sweepTop: row?.sweepTop ?? null, sweepBelow: row?.sweepBelow ?? null };
}

async function saveState(db: Pick<Database, "insert">, place: Place, values: Partial<typeof auditLogReads.$inferInsert>) {
  await db.insert(auditLogReads).values({ place, ...values }).onConflictDoUpdate({ target: auditLogReads.place, set: values });
}

/** VRChat: newest first between the last time held and the sweep's top (fixed when it began, so offsets stay put). */
const vrchatStep = (auditLog: VRChatAuditLog, now: Date) => async (state: ReadState): Promise<Step> => {
  const top = state.sweepTop ?? now.toISOString();
  const offset = Number(state.sweepBelow ?? 0) || 0;
  const page = await auditLog.page({ startDate: state.doneTo, endDate: top }, offset);
  return { acts: page.acts, departures: page.departures, top, below: String(offset + AUDIT_PAGE), done: !page.hasNext };
};

const entryId = (act: ReadAct) => BigInt(act.sourceId.split(":")[0]!);

/** Discord: newest first, `before` the oldest entry read, down to the last entry held. */
const discordStep = (bot: DiscordBot) => async (state: ReadState): Promise<Step> => {
  const page = await bot.auditLog(state.sweepBelow);
  const held = state.doneTo === null ? null : BigInt(state.doneTo);
  const acts = held === null ? page.acts : page.acts.filter((act) => entryId(act) > held);
  const reached = held !== null && page.oldest !== null && BigInt(page.oldest) <= held;
  return { acts, top: state.sweepTop ?? page.newest ?? state.doneTo, below: page.oldest, done: reached || !page.hasNext || page.oldest === null };
};

/** The acts read, with their moderators known as staff where the account is a staff member's, and the bot's own left out. */
async function keep(db: Database, acts: ReadAct[], botId: string | null) {
  const others = acts.filter((act) => !botId || act.actorAccountId !== botId);
  if (others.length === 0) return [];
  const vrchatActors = others.filter((act) => act.place === "vrchat" && act.actorAccountId).map((act) => act.actorAccountId!);
  const discordActors = others.filter((act) => act.place === "discord" && act.actorAccountId).map((act) => act.actorAccountId!);
  const [owners, names] = await Promise.all([
    staffOwning(db, { vrchat: vrchatActors, discord: discordActors }),
    knownVRChatNames(db, others.flatMap((act) => (act.targetVrchatId ? [act.targetVrchatId] : []))),
  ]);
  return recordActs(
    db,
    others.map((act) => {
      const owner = act.actorAccountId ? owners.get(act.actorAccountId) : undefined;
      return {
        ...act,
        actorKey: owner ? staffKey(owner.id) : `${act.place}:${act.actorAccountId ?? "unknown"}`,
        targetName: act.targetName ?? (act.targetVrchatId ? (names.get(act.targetVrchatId) ?? null) : null),
      };
    }),
  );
}

/** One read of one place's log: up to the page cap, keeping where it got to after every page. */
async function readPlace(services: ModerationLogServices, place: Place, step: (state: ReadState) => Promise<Step>, botId: () => Promise<string | null>, now: Date) {
  const { db } = services;
  let added = 0;
  try {
    const bot = await botId();
    for (let page = 0; page < AUDIT_PAGES_PER_READ; page += 1) {
      const state = await stateOf(db, place);
      const read = await step(state);
      added += (await keep(db, read.acts, bot)).length;
      // Before the read moves on: a failure here reads the page again (its acts are held once).
      await followRoleChanges(services.bridge, (read.departures ?? []).map((left) => ({ place: "vrchat" as const, userId: left.userId })));
      await saveState(
        db,
        place,
        read.done
          ? { doneTo: read.top ?? state.doneTo, sweepTop: null, sweepBelow: null, lastReadAt: now, lastError: null }
          : { sweepTop: read.top, sweepBelow: read.below, lastReadAt: now, lastError: null },
      );
      if (read.done) break;
    }
    return { added, error: null };
  } catch (error) {
    const text = truncate(failureText(error), 500);
    await saveState(db, place, { lastError: text, lastErrorAt: now });
    return { added, error: text };
  }
}

/**
 * Reads both logs (each place on its own: one failing never holds the other), forgets what is past
 * the owner's retention, then lets the tripwire look at what is new.
 */
export async function readModerationLogs(services: ModerationLogServices, now: Date) {
  const { db, auditLog, discord } = services;
  const vrchat = auditLog ? await readPlace(services, "vrchat", vrchatStep(auditLog, now), () => auditLog.botUserId(), now) : null;
  const discordRead = discord ? await readPlace(services, "discord", discordStep(discord), () => discord.messages.botId(), now) : null;
  const settings = await getTripwireSettings(db);
  if (settings.retentionDays !== null) await forgetActsBefore(db, new Date(now.getTime() - settings.retentionDays * 86_400_000));
  const tripped = await watchModerators(services, now);
  return { vrchat, discord: discordRead, tripped };
}

/** The least time between two reads, whoever asks (the schedule, a staff member's 'Read the logs now'). */
export const MIN_READ_GAP_MS = 60_000;

/** How long until the logs may be read again (0: now). */
export async function nextReadIn(db: Database, now: Date): Promise<number> {
  const [row] = await db.select({ last: sql<Date | null>`max(${auditLogReads.lastReadAt})` }).from(auditLogReads);
  const last = row?.last ? new Date(row.last).getTime() : 0;
  return Math.max(0, last + MIN_READ_GAP_MS - now.getTime());
}

/** What reading the logs needs, from what every entry point has (the schedule, a route's context). */
export function moderationLogServices(from: {
  db: Database;
  config: Parameters<typeof decideServices>[0]["config"] & { ROLE_BRIDGE_CALLS_PER_MINUTE: number };
  vrchat: VRChatServices;
  discord: DiscordBot | null;
  notifications: { wake(): void; targets?: Parameters<typeof decideServices>[0]["notifications"]["targets"] };
}): ModerationLogServices {
  const decide = decideServices({ db: from.db, config: from.config, vrchat: from.vrchat, discord: from.discord, notifications: from.notifications });
  return {
    ...tripwireServices(decide, from.vrchat.memberRoles !== null),
    auditLog: from.vrchat.auditLog,
    bridge: roleBridgeServices({ db: from.db, config: from.config, vrchat: from.vrchat, discord: from.discord, wake: () => from.notifications.wake() }),
  };
}
