/**
 * The staff as a team: who is on it and with which role, the owners' invitations (single-use links
 * valid 7 days, their tokens kept only as hashes), role changes, removals (which end the member's
 * sessions at once), each role's two-factor requirement, and the team's history of all of these.
 * The last owner can be neither removed nor demoted: someone must always be able to run the team.
 */
import { createHash, randomBytes } from "node:crypto";
import { and, asc, count, desc, eq, gt, isNull, ne, sql } from "drizzle-orm";
import { z } from "zod";
import { isUniqueViolation, type Database } from "~/db/db.server";
import { STAFF_ROLES, type StaffRole } from "~/db/enums";
import { profiles, rolePolicies, sessions, teamHistory, teamInvitations } from "~/db/schema";
import type { Auth } from "~/utils/auth.server";
import { ROLE_LABEL } from "~/utils/roles";
import { AccountError, createAccount } from "./accounts.server";
import { invitationInvalid, lastOwnerMessage } from "./team-texts";
import { m } from "~/paraglide/messages";

export const INVITATION_DAYS = 7;

type Executor = Pick<Database, "select" | "insert" | "update" | "delete">;

export interface Actor {
  id: string;
  username: string;
}

export interface TeamMember {
  id: string;
  username: string;
  email: string;
  role: StaffRole;
  twoFactorEnabled: boolean;
  lastSignInAt: Date | null;
  discordUserId: string | null;
}

const isStaffRole = (role: string): role is StaffRole => (STAFF_ROLES as readonly string[]).includes(role);

/** The team: every account with a staff role, owners first. */
export async function listTeam(db: Pick<Database, "select">): Promise<TeamMember[]> {
  const rows = await db
    .select({
      id: profiles.id,
      username: profiles.username,
      email: profiles.email,
      role: profiles.role,
      twoFactorEnabled: profiles.twoFactorEnabled,
      lastSignInAt: profiles.lastSignInAt,
      discordUserId: profiles.discordUserId,
    })
    .from(profiles)
    .orderBy(asc(profiles.createdAt));
  const order = (role: StaffRole) => STAFF_ROLES.indexOf(role);
  return rows
    .filter((row): row is typeof row & { role: StaffRole } => isStaffRole(row.role))
    .sort((a, b) => order(a.role) - order(b.role));
}

export async function record(tx: Executor, actor: Actor | null, change: string) {
  await tx.insert(teamHistory).values({ actorId: actor?.id ?? null, actorName: actor?.username ?? "the site", change });
}

export async function listTeamHistory(db: Pick<Database, "select">, limit = 50) {
  return db
    .select({ id: teamHistory.id, actorName: teamHistory.actorName, change: teamHistory.change, createdAt: teamHistory.createdAt })
    .from(teamHistory)
    .orderBy(desc(teamHistory.createdAt), desc(teamHistory.id))
    .limit(limit);
}

const hashToken = (token: string) => createHash("sha256").update(token).digest("hex");
const TOKEN_SHAPE = /^[A-Za-z0-9_-]{43}$/;

export const InvitationInputSchema = z.object({
  email: z.string().trim().toLowerCase().pipe(z.email({ error: () => m.team_valid_email() })).pipe(z.string().max(254, { error: () => m.team_valid_email() })),
  role: z.enum(STAFF_ROLES, { error: () => m.team_choose_role() }),
});

export type InvitationOutcome = { ok: true; token: string; email: string; role: StaffRole; expiresAt: Date } | { ok: false; message: string };

/**
 * An invitation for `email` to join as `role`. A newer invitation to the same address replaces an
 * open one (only the newest link works). Refused for an address already on the team.
 */
export async function inviteMember(db: Database, input: { email: string; role: string }, actor: Actor, now: Date): Promise<InvitationOutcome> {
  const parsed = InvitationInputSchema.safeParse(input);
  if (!parsed.success) return { ok: false, message: parsed.error.issues[0]!.message };
  const { email, role } = parsed.data;
  const token = randomBytes(32).toString("base64url");
  const expiresAt = new Date(now.getTime() + INVITATION_DAYS * 24 * 60 * 60 * 1000);
  return db.transaction(async (tx) => {
    const [existing] = await tx.select({ role: profiles.role }).from(profiles).where(eq(profiles.email, email));
    if (existing) return { ok: false, message: `${email} already has an account here.` } as const;
    await tx
      .update(teamInvitations)
      .set({ closedAt: now })
      .where(and(eq(teamInvitations.email, email), isNull(teamInvitations.closedAt)));
    await tx.insert(teamInvitations).values({ email, role, tokenHash: hashToken(token), invitedBy: actor.id, expiresAt });
    await record(tx, actor, `invited ${email} as ${ROLE_LABEL[role]}`);
    return { ok: true, token, email, role, expiresAt } as const;
  });
}

/**
 * An invitation lasts only as long as its maker's right to make it: when an owner is demoted or
 * removed, the invitations they made and nobody used are closed with it.
 */
async function closeInvitationsBy(tx: Executor, makerId: string, makerName: string, actor: Actor) {
  const closed = await tx
    .update(teamInvitations)
    .set({ closedAt: new Date() })
    .where(and(eq(teamInvitations.invitedBy, makerId), isNull(teamInvitations.closedAt)))
    .returning({ email: teamInvitations.email });
  for (const { email } of closed) await record(tx, actor, `closed the invitation of ${email}: ${makerName}, who made it, may no longer invite`);
}

/** The invitations still open whose maker is an owner now: only these let anyone in. */
const madeByAnOwner = sql`exists (select 1 from ${profiles} where ${profiles.id} = ${teamInvitations.invitedBy} and ${profiles.role} = 'owner')`;

/** What an invitation link opens: null when it was used, withdrawn, has expired, its maker may no longer invite, or never was. */
export async function getInvitation(db: Pick<Database, "select">, token: string, now: Date) {
  if (!TOKEN_SHAPE.test(token)) return null;
  const [row] = await db
    .select({ id: teamInvitations.id, email: teamInvitations.email, role: teamInvitations.role, expiresAt: teamInvitations.expiresAt })
    .from(teamInvitations)
    .where(and(eq(teamInvitations.tokenHash, hashToken(token)), isNull(teamInvitations.closedAt), gt(teamInvitations.expiresAt, now), madeByAnOwner));
  return row ?? null;
}

/** The invitations not yet used, newest first. */
export async function listOpenInvitations(db: Pick<Database, "select">, now: Date) {
  return db
    .select({ id: teamInvitations.id, email: teamInvitations.email, role: teamInvitations.role, expiresAt: teamInvitations.expiresAt })
    .from(teamInvitations)
    .where(and(isNull(teamInvitations.closedAt), gt(teamInvitations.expiresAt, now), madeByAnOwner))
    .orderBy(desc(teamInvitations.createdAt));
}

export async function withdrawInvitation(db: Database, invitationId: string, actor: Actor, now: Date): Promise<boolean> {
  if (!z.uuid().safeParse(invitationId).success) return false;
  return db.transaction(async (tx) => {
    const [closed] = await tx
      .update(teamInvitations)
      .set({ closedAt: now })
      .where(and(eq(teamInvitations.id, invitationId), isNull(teamInvitations.closedAt)))
      .returning({ email: teamInvitations.email });
    if (!closed) return false;
    await record(tx, actor, `withdrew the invitation of ${closed.email}`);
    return true;
  });
}

export type AcceptOutcome = { ok: true; email: string } | { ok: false; message: string; field?: "username" | "password" };

/**
 * Uses an invitation: its account is made with the invited address and role, the username and
 * passphrase given (the passphrase policy applies). The invitation is closed first, in a statement
 * that only one use can win; should the account not be made, it opens again.
 */
export async function acceptInvitation(db: Database, auth: Auth, input: { token: string; username: string; password: string }, now: Date): Promise<AcceptOutcome> {
  const username = input.username.trim();
  if (!username || username.length > 64) return { ok: false, message: m.team_username(), field: "username" };
  if (!TOKEN_SHAPE.test(input.token)) return { ok: false, message: invitationInvalid() };
  const [claimed] = await db
    .update(teamInvitations)
    .set({ closedAt: now })
    .where(and(eq(teamInvitations.tokenHash, hashToken(input.token)), isNull(teamInvitations.closedAt), gt(teamInvitations.expiresAt, now), madeByAnOwner))
    .returning({ id: teamInvitations.id, email: teamInvitations.email, role: teamInvitations.role });
  if (!claimed) return { ok: false, message: invitationInvalid() };
  const reopen = () => db.update(teamInvitations).set({ closedAt: null }).where(eq(teamInvitations.id, claimed.id));
  let account;
  try {
    account = await createAccount(auth, { email: claimed.email, password: input.password, username, role: claimed.role });
  } catch (error) {
    if (error instanceof AccountError && /already exists/.test(error.message)) return { ok: false, message: `${claimed.email} already has an account here. Sign in instead.` };
    await reopen();
    if (error instanceof AccountError) return { ok: false, message: error.message.replace(/^--password: /, ""), field: "password" };
    throw error;
  }
  await record(db, { id: account.id, username: account.username }, `joined as ${ROLE_LABEL[claimed.role]} (${claimed.email})`);
  return { ok: true, email: claimed.email };
}

export type TeamChange = { ok: true } | { ok: false; status: 404 | 409 | 400; message: string };

const noSuchMember = () => ({ ok: false, status: 404, message: m.team_no_such_member() }) as const;
const lastOwner = () => ({ ok: false, status: 409, message: lastOwnerMessage() }) as const;

/**
 * A member about to lose their role (changed or removed), read with the owners locked, so two owners
 * demoting or removing each other at once cannot both succeed. A refusal when there is no such
 * member, or when they are the last owner and `keepsOwner` is false.
 */
async function memberLeavingRole(tx: Executor & Pick<Database, "execute">, memberId: string, keepsOwner: boolean) {
  await tx.execute(sql`select id from ${profiles} where ${profiles.role} = 'owner' for update`);
  const [member] = await tx.select({ username: profiles.username, email: profiles.email, role: profiles.role }).from(profiles).where(eq(profiles.id, memberId));
  if (!member || !isStaffRole(member.role)) return { ok: false, refused: noSuchMember() } as const;
  if (member.role === "owner" && !keepsOwner) {
    const [others] = await tx.select({ n: count() }).from(profiles).where(and(eq(profiles.role, "owner"), ne(profiles.id, memberId)));
    if (others!.n === 0) return { ok: false, refused: lastOwner() } as const;
  }
  return { ok: true, member: { ...member, role: member.role as StaffRole } } as const;
}

/** Gives a member another role; never the last owner's. The member's next request meets the new role. */
export async function changeRole(db: Database, memberId: string, role: string, actor: Actor): Promise<TeamChange> {
  if (!isStaffRole(role)) return { ok: false, status: 400, message: m.team_choose_role() };
  if (!z.uuid().safeParse(memberId).success) return noSuchMember();
  return db.transaction(async (tx): Promise<TeamChange> => {
    const leaving = await memberLeavingRole(tx, memberId, role === "owner");
    if (!leaving.ok) return leaving.refused;
    const { member } = leaving;
    if (member.role === role) return { ok: true } as const;
    await tx.update(profiles).set({ role }).where(eq(profiles.id, memberId));
    await record(tx, actor, `made ${member.username} ${ROLE_LABEL[role]} (was ${ROLE_LABEL[member.role]})`);
    if (member.role === "owner" && role !== "owner") await closeInvitationsBy(tx, memberId, member.username, actor);
    return { ok: true } as const;
  });
}

/** Removes a member from the team: their account goes, and with it every session, at once. */
export async function removeMember(db: Database, memberId: string, actor: Actor): Promise<TeamChange> {
  if (!z.uuid().safeParse(memberId).success) return noSuchMember();
  return db.transaction(async (tx): Promise<TeamChange> => {
    const leaving = await memberLeavingRole(tx, memberId, false);
    if (!leaving.ok) return leaving.refused;
    const { member } = leaving;
    await tx.delete(sessions).where(eq(sessions.userId, memberId));
    await closeInvitationsBy(tx, memberId, member.username, actor);
    await tx.delete(profiles).where(eq(profiles.id, memberId));
    await record(tx, actor, `removed ${member.username} (${member.email}, ${ROLE_LABEL[member.role]})`);
    return { ok: true } as const;
  });
}

/**
 * Suspends a staff member (the tripwire, past a limit): every session ends at once and the Sanctum and
 * Discord's buttons refuse them until an owner lifts it. An owner is never suspended this way.
 */
export async function suspendMember(tx: Executor & Pick<Database, "update" | "delete">, memberId: string, why: string, now: Date): Promise<boolean> {
  const [member] = await tx
    .update(profiles)
    .set({ suspendedAt: now })
    .where(and(eq(profiles.id, memberId), ne(profiles.role, "owner"), isNull(profiles.suspendedAt)))
    .returning({ username: profiles.username });
  if (!member) return false;
  await tx.delete(sessions).where(eq(sessions.userId, memberId));
  await record(tx, null, `suspended ${member.username}: ${why}`);
  return true;
}

export async function liftSuspension(tx: Executor & Pick<Database, "update">, memberId: string, actor: Actor) {
  const [member] = await tx.update(profiles).set({ suspendedAt: null }).where(eq(profiles.id, memberId)).returning({ username: profiles.username });
  if (member) await record(tx, actor, `lifted ${member.username}'s suspension`);
}

/** The owners to alert in Discord (those with their Discord account on the Team page), each in their language. */
export async function ownersInDiscord(db: Pick<Database, "select">) {
  const rows = await db.select({ id: profiles.id, discordUserId: profiles.discordUserId, language: profiles.language }).from(profiles).where(eq(profiles.role, "owner"));
  return rows.flatMap((row) => (row.discordUserId ? [{ id: row.id, discordUserId: row.discordUserId, language: row.language }] : []));
}

/** Which roles must sign in with two-factor (the Team page's setting). */
export async function listRolePolicies(db: Pick<Database, "select">): Promise<Record<StaffRole, boolean>> {
  const rows = await db.select({ role: rolePolicies.role, requireTwoFactor: rolePolicies.requireTwoFactor }).from(rolePolicies);
  return Object.fromEntries(STAFF_ROLES.map((role) => [role, rows.find((row) => row.role === role)?.requireTwoFactor ?? false])) as Record<StaffRole, boolean>;
}

export async function setTwoFactorRequired(db: Database, required: Record<StaffRole, boolean>, actor: Actor): Promise<void> {
  await db.transaction(async (tx) => {
    const before = await listRolePolicies(tx);
    for (const role of STAFF_ROLES) {
      if (before[role] === required[role]) continue;
      await tx
        .insert(rolePolicies)
        .values({ role, requireTwoFactor: required[role] })
        .onConflictDoUpdate({ target: rolePolicies.role, set: { requireTwoFactor: required[role] } });
      await record(tx, actor, `${required[role] ? "required" : "stopped requiring"} two-factor sign-in for ${ROLE_LABEL[role]}s`);
    }
  });
}

/** Sets (or clears) a member's Discord account: who they are when they press a review button. */
export async function setMemberDiscord(db: Database, memberId: string, discord: { userId: string; name: string } | null, actor: Actor): Promise<TeamChange> {
  if (!z.uuid().safeParse(memberId).success) return noSuchMember();
  try {
    return await db.transaction(async (tx) => {
      const [member] = await tx.update(profiles).set({ discordUserId: discord?.userId ?? null }).where(eq(profiles.id, memberId)).returning({ username: profiles.username });
      if (!member) return noSuchMember();
      await record(tx, actor, discord ? `linked ${member.username} to ${discord.name} in Discord (${discord.userId})` : `unlinked ${member.username}'s Discord account`);
      return { ok: true } as const;
    });
  } catch (error) {
    if (isUniqueViolation(error)) return { ok: false, status: 409, message: m.team_discord_taken() };
    throw error;
  }
}

/** A member's own Discord account id, if linked. */
export async function getMemberDiscord(db: Pick<Database, "select">, memberId: string): Promise<string | null> {
  const [row] = await db.select({ discordUserId: profiles.discordUserId }).from(profiles).where(eq(profiles.id, memberId));
  return row?.discordUserId ?? null;
}

/** The staff member a Discord account belongs to, if any. */
export async function findMemberByDiscord(
  db: Pick<Database, "select">,
  discordUserId: string,
): Promise<{ id: string; username: string; role: StaffRole; twoFactorEnabled: boolean; language: string | null } | null> {
  const [row] = await db
    .select({ id: profiles.id, username: profiles.username, role: profiles.role, twoFactorEnabled: profiles.twoFactorEnabled, language: profiles.language })
    .from(profiles)
    .where(and(eq(profiles.discordUserId, discordUserId), isNull(profiles.suspendedAt)));
  return row && isStaffRole(row.role) ? { id: row.id, username: row.username, role: row.role, twoFactorEnabled: row.twoFactorEnabled, language: row.language } : null;
}

/** A member chosen on a form (an event's host): undefined when none was chosen, null when it is not a staff member. */
export async function chosenTeamMember(db: Database, value: FormDataEntryValue | null): Promise<string | undefined | null> {
  if (value === null || value === "") return undefined;
  const team = await listTeam(db);
  return team.some((member) => member.id === value) ? String(value) : null;
}
