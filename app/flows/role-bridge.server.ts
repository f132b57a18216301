/**
 * The role bridge: a VRChat group role and a Discord role kept in step for people known to be the
 * same person in both places (a proven bio code and a Discord sign-in, or a staff member's word on
 * their file). Never a role no link names, never a person known on one side only.
 *
 * - A new link first reads who holds each role (VRChat's members by role, the Discord server's member
 *   list), then shows its dry run (who gains, who loses, in each place); an owner starts the fill,
 *   which goes out at one pace shared by every process (ROLE_BRIDGE_CALLS_PER_MINUTE).
 * - Afterwards, changes are read from the audit logs (VRChat's `group.member.role.assign`/`unassign`,
 *   Discord's member role updates), never by reading every member again; leaving or being removed
 *   from one place takes the linked roles in the other, and a ban anywhere takes them everywhere.
 * - Every change is a `member_role` job: written into the moderation history (the person's file
 *   shows it) with the link that caused it.
 */
import { and, asc, gt, inArray, sql } from "drizzle-orm";
import { z } from "zod";
import { isUniqueViolation, type Database } from "~/db/db.server";
import { jobRuns, moderationActs, outbox } from "~/db/schema";
import type { DiscordBot } from "~/features/discord/discord-bot.server";
import { outcomeOf as discordOutcome } from "~/features/discord/discord-jobs.server";
import type { DeliveryOutcome } from "~/features/notifications/notification";
import type { OutboxChannel } from "~/features/notifications/outbox.server";
import { allConfirmedPairs, confirmedPairs, knownVRChatNames } from "~/features/people/identities.server";
import {
  dropHoldings,
  getLink,
  holdersOf,
  holdsRole,
  insertLink,
  listLinks,
  planFill,
  replaceHolders,
  setHolding,
  setLinkState,
  type FillPlan,
  type Pair,
  type RoleLink,
  type RoleLinkInput,
} from "~/features/roles/role-links.server";
import { actionOutcomeOf } from "~/features/vrchat/vrchat-actions.server";
import type { RoleReader } from "~/features/vrchat/vrchat-roles.server";
import { takeTurn } from "~/utils/pace.server";
import { failureText } from "~/utils/failure-text.server";
import { truncate } from "~/utils/text";
import { m } from "~/paraglide/messages";
import type { MemberRoleJob } from "./member-roles.server";
import { randomUUID } from "node:crypto";

export interface RoleBridgeServices {
  db: Database;
  /** The group's roles and holders in VRChat (null: VRChat is not configured). */
  vrchat: RoleReader | null;
  /** Dwell gives and takes VRChat roles (VRCHAT_MEMBERSHIP_ACTIONS). */
  vrchatActs: boolean;
  discord: DiscordBot | null;
  /** The bridge's pace: its calls a minute, all processes together. */
  callsPerMinute: number;
  wake: () => void;
}

export const PACE_KEY = "role-bridge";

/** The roles of both places as the page offers them: each with whether Dwell may give it, and why not. */
export async function linkableRoles(services: RoleBridgeServices) {
  const [vrchat, discord] = await Promise.all([
    services.vrchat ? services.vrchat.roles() : Promise.resolve([]),
    services.discord ? services.discord.linkableRoles() : Promise.resolve([]),
  ]);
  return {
    vrchat: vrchat.map((role) => ({ id: role.id, name: role.name, givable: !role.management, why: role.management ? m.rb_why_management() : null })),
    discord: discord.map((role) => ({ id: role.id, name: role.name, givable: role.givable, why: role.why === "managed" ? m.rb_why_managed() : role.why === "above-bot" ? m.rb_why_above_bot() : null })),
  };
}

export type LinkOutcome = { kind: "linked"; link: RoleLink } | { kind: "refused"; reason: string };

/**
 * Makes a link after checking both roles as they are now: each must exist and be one Dwell may give,
 * and neither may be in another link. Its holders are then read by the outbox (a paged read).
 */
export async function createRoleLink(services: RoleBridgeServices, input: RoleLinkInput, actor: { name: string }): Promise<LinkOutcome> {
  if (!services.vrchat || !services.discord) return { kind: "refused", reason: m.rb_needs_both() };
  const roles = await linkableRoles(services);
  const vrchat = roles.vrchat.find((role) => role.id === input.vrchatRoleId);
  const discord = roles.discord.find((role) => role.id === input.discordRoleId);
  if (!vrchat) return { kind: "refused", reason: m.rb_vrchat_gone() };
  if (!discord) return { kind: "refused", reason: m.rb_discord_gone() };
  if (!vrchat.givable) return { kind: "refused", reason: m.rb_cannot_give({ role: vrchat.name, why: vrchat.why ?? "" }) };
  if (!discord.givable) return { kind: "refused", reason: m.rb_cannot_give({ role: discord.name, why: discord.why ?? "" }) };
  let link: RoleLink;
  try {
    link = await services.db.transaction(async (tx) => {
      const made = await insertLink(tx, { ...input, vrchatRoleName: vrchat.name, discordRoleName: discord.name }, actor.name);
      await tx.insert(outbox).values({ target: "role_link_read", payload: { linkId: made.id }, sourceId: made.id });
      return made;
    });
  } catch (error) {
    // One of the roles is in another link (the unique index in force says so, whoever got there first).
    if (isUniqueViolation(error)) return { kind: "refused", reason: m.rb_taken() };
    throw error;
  }
  services.wake();
  return { kind: "linked", link };
}

const ReadJobSchema = z.object({ linkId: z.uuid() });
/** Pages of the Discord member list read at most (1,000 members each). */
const DISCORD_MEMBER_PAGES = 100;

/** Reads who holds a link's two roles (VRChat by role, pages of 100; Discord's member list, pages of 1,000). */
export function roleLinkReadChannel(services: RoleBridgeServices, timeoutMs: number): OutboxChannel {
  return {
    target: "role_link_read",
    maxDeliveryMs: 300 * timeoutMs,
    async deliver(payload: unknown): Promise<DeliveryOutcome> {
      const job = ReadJobSchema.safeParse(payload);
      if (!job.success) return { kind: "failed", error: "The job could not be read" };
      const link = await getLink(services.db, job.data.linkId);
      if (!link || link.removedAt) return { kind: "delivered", result: "The link was removed" };
      if (!services.vrchat || !services.discord) return { kind: "failed", error: m.rb_needs_both() };
      const now = new Date();
      let vrchat: string[];
      const discord: string[] = [];
      try {
        const read = await services.vrchat.holders(link.vrchatRoleId);
        if (!read.complete) throw new Error("VRChat's list of the role's holders was longer than Dwell reads");
        vrchat = read.userIds;
      } catch (error) {
        await setLinkState(services.db, link.id, { readError: truncate(failureText(error), 300) });
        return actionOutcomeOf(error, (reason) => `VRChat refused the bot account (${reason}): its role needs group-members-viewall`);
      }
      try {
        let after: string | null = null;
        for (let page = 0; page < DISCORD_MEMBER_PAGES; page += 1) {
          const read = await services.discord.memberPage(after);
          for (const member of read.members) if (member.roles.includes(link.discordRoleId)) discord.push(member.id);
          after = read.last;
          if (!after) break;
        }
      } catch (error) {
        await setLinkState(services.db, link.id, { readError: truncate(failureText(error), 300) });
        return discordOutcome(error, "member_role");
      }
      await replaceHolders(services.db, "vrchat", link.vrchatRoleId, vrchat, now);
      await replaceHolders(services.db, "discord", link.discordRoleId, discord, now);
      await setLinkState(services.db, link.id, { readError: null, ...(link.state === "reading" ? { state: "ready" as const } : {}) });
      return { kind: "delivered", result: `Read ${vrchat.length} holders in VRChat and ${discord.length} in Discord` };
    },
  };
}

export interface DryRun {
  counts: { vrchatGain: number; vrchatLose: number; discordGain: number; discordLose: number; pairs: number };
  /** A few names of each list, to see who it means. */
  samples: { vrchatGain: string[]; vrchatLose: string[]; discordGain: string[]; discordLose: string[] };
}

async function planOf(db: Database, link: RoleLink): Promise<{ plan: FillPlan; pairs: Pair[] }> {
  const [pairs, vrchat, discord] = await Promise.all([allConfirmedPairs(db), holdersOf(db, "vrchat", link.vrchatRoleId), holdersOf(db, "discord", link.discordRoleId)]);
  return { plan: planFill(link.direction, pairs, vrchat, discord), pairs };
}

/** What the link's fill would change now: only reads. */
export async function dryRun(db: Database, link: RoleLink, sample = 10): Promise<DryRun> {
  const { plan, pairs } = await planOf(db, link);
  const lists = [plan.vrchat.gain, plan.vrchat.lose, plan.discord.gain, plan.discord.lose];
  const names = await knownVRChatNames(db, lists.flatMap((list) => list.slice(0, sample).map((pair) => pair.vrchatUserId)));
  const named = (list: Pair[]) => list.slice(0, sample).map((pair) => names.get(pair.vrchatUserId) ?? pair.vrchatUserId);
  return {
    counts: { vrchatGain: plan.vrchat.gain.length, vrchatLose: plan.vrchat.lose.length, discordGain: plan.discord.gain.length, discordLose: plan.discord.lose.length, pairs: pairs.length },
    samples: { vrchatGain: named(plan.vrchat.gain), vrchatLose: named(plan.vrchat.lose), discordGain: named(plan.discord.gain), discordLose: named(plan.discord.lose) },
  };
}

const reasonOf = (link: RoleLink) => m.rb_reason({ vrchat: link.vrchatRoleName, discord: link.discordRoleName });
const spacingOf = (services: RoleBridgeServices) => Math.ceil(60_000 / Math.max(1, services.callsPerMinute));

type Change = Omit<MemberRoleJob, "actId">;

/**
 * Takes turns for `count` changes from the one pace every process shares, so two fills (or a fill and
 * the day's changes) never go faster together than the pace allows: when the first may go, and the
 * spacing. Taken before the transaction that queues them (the pace is its own row, its own statement).
 */
async function reserveTurns(services: RoleBridgeServices, count: number): Promise<{ start: number; spacing: number }> {
  const spacing = spacingOf(services);
  if (count === 0) return { start: Date.now(), spacing };
  const wait = await takeTurn(services.db, PACE_KEY, spacing * count);
  return { start: Date.now() + wait, spacing };
}

async function queueAtPace(tx: Pick<Database, "insert">, changes: Change[], sourceId: string, turns: { start: number; spacing: number }, offset = 0) {
  for (let i = 0; i < changes.length; i += 1_000) {
    await tx.insert(outbox).values(
      changes
        .slice(i, i + 1_000)
        .map((change, j) => ({ target: "member_role", payload: { ...change, actId: randomUUID() } satisfies MemberRoleJob, sourceId, nextAttemptAt: new Date(turns.start + (offset + i + j) * turns.spacing) })),
    );
  }
}

export type FillOutcome = { kind: "filling"; total: number } | { kind: "not-ready" } | { kind: "missing" };

/** Starts a link's fill: the dry run's changes, queued at the bridge's pace. */
export async function startFill(services: RoleBridgeServices, linkId: string, actor: { id: string; name: string }): Promise<FillOutcome> {
  const link = await getLink(services.db, linkId);
  if (!link || link.removedAt) return { kind: "missing" };
  if (link.state !== "ready") return { kind: "not-ready" };
  const { plan } = await planOf(services.db, link);
  const reason = reasonOf(link);
  const names = await knownVRChatNames(services.db, [...plan.vrchat.gain, ...plan.vrchat.lose, ...plan.discord.gain, ...plan.discord.lose].map((pair) => pair.vrchatUserId));
  const change = (place: "vrchat" | "discord", action: "give" | "take", pair: Pair): Change => ({
    place,
    action,
    userId: place === "vrchat" ? pair.vrchatUserId : pair.discordUserId,
    roleId: place === "vrchat" ? link.vrchatRoleId : link.discordRoleId,
    roleName: place === "vrchat" ? link.vrchatRoleName : link.discordRoleName,
    targetName: names.get(pair.vrchatUserId) ?? null,
    reason,
    actor: { id: actor.id, name: actor.name },
    linkId: link.id,
  });
  const changes = [
    ...(services.vrchatActs ? [...plan.vrchat.gain.map((pair) => change("vrchat", "give", pair)), ...plan.vrchat.lose.map((pair) => change("vrchat", "take", pair))] : []),
    ...plan.discord.gain.map((pair) => change("discord", "give", pair)),
    ...plan.discord.lose.map((pair) => change("discord", "take", pair)),
  ];
  const now = new Date();
  const turns = await reserveTurns(services, changes.length);
  await services.db.transaction(async (tx) => {
    await queueAtPace(tx, changes, link.id, turns);
    await setLinkState(tx, link.id, { state: changes.length > 0 ? "filling" : "active", fillTotal: changes.length, fillStartedAt: now, ...(changes.length === 0 ? { fillFinishedAt: now } : {}) });
  });
  services.wake();
  return { kind: "filling", total: changes.length };
}

const FOLLOW_CURSOR = "role-bridge:followed";

/**
 * Follows the acts recorded since the last look (read from VRChat's and Discord's logs, or Dwell's
 * own bans): a linked role given or taken by hand in one place is given or taken in the other (as
 * the link's direction says); a kick takes the linked roles the other side follows; a ban takes them
 * in both places. The bridge's own changes are Dwell's acts and are never followed again.
 */
export async function followRoleChanges(services: RoleBridgeServices, departures: { place: "vrchat"; userId: string }[] = []) {
  const { db } = services;
  const [cursor] = await db.select().from(jobRuns).where(sql`${jobRuns.name} = ${FOLLOW_CURSOR}`);
  const since = cursor ? cursor.startedAt : new Date(0);
  const acts = await db
    .select()
    .from(moderationActs)
    .where(and(gt(moderationActs.createdAt, since), inArray(moderationActs.kind, ["role_add", "role_remove", "ban", "kick"])))
    .orderBy(asc(moderationActs.createdAt))
    .limit(5_000);
  const now = new Date();
  const changes: (Change & { sourceId: string })[] = [];
  const vrchatIds = [...acts.map((act) => act.targetVrchatId), ...departures.map((left) => left.userId)].filter((id): id is string => Boolean(id));
  const discordIds = acts.map((act) => act.targetDiscordId).filter((id): id is string => Boolean(id));
  const pairs = await confirmedPairs(db, { vrchat: vrchatIds, discord: discordIds });
  const otherOf = (place: "vrchat" | "discord", id: string) => pairs.filter((pair) => (place === "vrchat" ? pair.vrchatUserId === id : pair.discordUserId === id)).map((pair) => (place === "vrchat" ? pair.discordUserId : pair.vrchatUserId));
  const links = await listLinks(db);
  const followed = (link: RoleLink) => link.state === "filling" || link.state === "active";
  const take = (link: RoleLink, place: "vrchat" | "discord", userId: string, why: string) =>
    changes.push({ place, action: "take", userId, roleId: place === "vrchat" ? link.vrchatRoleId : link.discordRoleId, roleName: place === "vrchat" ? link.vrchatRoleName : link.discordRoleName, targetName: null, reason: why, actor: { id: null, name: m.rb_actor() }, linkId: link.id, sourceId: link.id });

  for (const act of acts) {
    const place = act.place === "dwell" ? null : act.place;
    const account = place === "vrchat" ? act.targetVrchatId : place === "discord" ? act.targetDiscordId : null;
    if ((act.kind === "role_add" || act.kind === "role_remove") && place && account && act.roleId) {
      const holds = act.kind === "role_add";
      const onRole = links.filter((link) => (place === "vrchat" ? link.vrchatRoleId : link.discordRoleId) === act.roleId);
      if (onRole.length > 0) await setHolding(db, place, act.roleId, account, holds, act.at);
      for (const link of onRole.filter(followed)) {
        const to = place === "vrchat" ? "discord" : "vrchat";
        const carries = link.direction === "both" || (place === "vrchat" ? link.direction === "to_discord" : link.direction === "to_vrchat");
        if (!carries || (to === "vrchat" && !services.vrchatActs)) continue;
        for (const other of otherOf(place, account)) {
          const has = await holdsRole(db, to, to === "vrchat" ? link.vrchatRoleId : link.discordRoleId, other);
          if (has === holds) continue;
          changes.push({ place: to, action: holds ? "give" : "take", userId: other, roleId: to === "vrchat" ? link.vrchatRoleId : link.discordRoleId, roleName: to === "vrchat" ? link.vrchatRoleName : link.discordRoleName, targetName: act.targetName, reason: reasonOf(link), actor: { id: null, name: m.rb_actor() }, linkId: link.id, sourceId: link.id });
        }
      }
    }
    // Out of one place: the linked roles the other side follows go; a ban takes them in both.
    if (act.kind === "ban" || act.kind === "kick") {
      const sides: ["vrchat" | "discord", string][] = [
        ...(act.targetVrchatId && (place === "vrchat" || place === null) ? [["vrchat", act.targetVrchatId] as ["vrchat", string]] : []),
        ...(act.targetDiscordId && (place === "discord" || place === null) ? [["discord", act.targetDiscordId] as ["discord", string]] : []),
      ];
      for (const [side, id] of sides) await removedFrom(side, id, act.kind === "ban");
    }
  }
  for (const left of departures) await removedFrom("vrchat", left.userId, false);

  async function removedFrom(side: "vrchat" | "discord", id: string, banned: boolean) {
    const to = side === "vrchat" ? "discord" : "vrchat";
    for (const other of otherOf(side, id)) {
      for (const link of links.filter(followed)) {
        const carries = banned || link.direction === "both" || (side === "vrchat" ? link.direction === "to_discord" : link.direction === "to_vrchat");
        if (!carries || (to === "vrchat" && !services.vrchatActs)) continue;
        if (!(await holdsRole(db, to, to === "vrchat" ? link.vrchatRoleId : link.discordRoleId, other))) continue;
        take(link, to, other, banned ? m.rb_reason_banned({ reason: reasonOf(link) }) : m.rb_reason_left({ reason: reasonOf(link) }));
      }
    }
    await dropHoldings(db, side, id);
  }

  const last = acts.at(-1)?.createdAt;
  const turns = await reserveTurns(services, changes.length);
  await db.transaction(async (tx) => {
    let offset = 0;
    for (const [sourceId, group] of Map.groupBy(changes, (change) => change.sourceId)) {
      await queueAtPace(tx, group.map(({ sourceId: _source, ...change }) => change), sourceId, turns, offset);
      offset += group.length;
    }
    if (last) {
      await tx.insert(jobRuns).values({ name: FOLLOW_CURSOR, startedAt: last, finishedAt: now }).onConflictDoUpdate({ target: jobRuns.name, set: { startedAt: last, finishedAt: now } });
    }
  });
  if (changes.length > 0) services.wake();
  return changes.length;
}

/** What the bridge needs, from what every entry point has (a route's context, the schedule, the workers). */
export function roleBridgeServices(from: { db: Database; config: { ROLE_BRIDGE_CALLS_PER_MINUTE: number }; vrchat: { roleReader: RoleReader | null; memberRoles: unknown }; discord: DiscordBot | null; wake: () => void }): RoleBridgeServices {
  return { db: from.db, vrchat: from.vrchat.roleReader, vrchatActs: from.vrchat.memberRoles !== null, discord: from.discord, callsPerMinute: from.config.ROLE_BRIDGE_CALLS_PER_MINUTE, wake: from.wake };
}
