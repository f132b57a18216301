/**
 * The applicant's accounts elsewhere, as admins (or the applicant's own form) linked them to the
 * application: in VRChat and in the group's Discord server. Each link and
 * unlink goes into the application's history, as do the outcomes of the actions taken on them.
 */
import { and, eq, inArray, isNull } from "drizzle-orm";
import { z } from "zod";
import type { Database } from "~/db/db.server";
import type { ApplicationKind, ApplicationStatus, VRChatLinkWay } from "~/db/enums";
import { applicationAuditLog, applications, eventApplications } from "~/db/schema";
import type { StoredAnswer } from "~/utils/form-questions";
import { vrchatUserIdFrom } from "~/utils/vrchat-profile-link";
import { truncate } from "~/utils/text";

export type LinkedService = "vrchat" | "discord";

export interface LinkedAccount {
  userId: string;
  displayName: string;
}

/** Who made a change in the history: an admin, or (id null) the applicant's form or the site. */
export interface HistoryActor {
  id: string | null;
  name: string;
}

function columnsOf(kind: ApplicationKind, service: LinkedService) {
  if (kind === "event") {
    return service === "vrchat"
      ? { table: eventApplications, userId: eventApplications.vrchatUserId, displayName: eventApplications.vrchatDisplayName }
      : { table: eventApplications, userId: eventApplications.discordUserId, displayName: eventApplications.discordDisplayName };
  }
  return service === "vrchat"
    ? { table: applications, userId: applications.vrchatUserId, displayName: applications.vrchatDisplayName }
    : { table: applications, userId: applications.discordUserId, displayName: applications.discordDisplayName };
}

/**
 * What a lookup needs of an application: the names the applicant gave, and the accounts linked.
 * An event's application is found only under its own event (`eventId`): a path naming another
 * event finds nothing.
 */
export async function getLinkTarget(db: Database, scope: { kind: "group" } | { kind: "event"; eventId: string }, applicationId: string) {
  if (!z.uuid().safeParse(applicationId).success) return null;
  const table = scope.kind === "event" ? eventApplications : applications;
  const inEvent = scope.kind === "event" ? eq(eventApplications.eventId, scope.eventId) : undefined;
  const [row] = await db
    .select({
      vrchatUsername: table.vrchatUsername,
      discordHandle: table.discordId,
      vrchatUserId: table.vrchatUserId,
      vrchatLinkedHow: table.vrchatLinkedHow,
      discordUserId: table.discordUserId,
      discordLinkedHow: table.discordLinkedHow,
    })
    .from(table)
    .where(and(eq(table.id, applicationId), isNull(table.spamAt), inEvent));
  return row ? { ...row, discordHandle: row.discordHandle ?? "" } : null;
}

type Executor = Pick<Database, "select" | "insert" | "update">;

export interface LinkTarget {
  id: string;
  status: ApplicationStatus;
  vrchatUsername: string;
  discordHandle: string;
  vrchatUserId: string | null;
  vrchatDisplayName: string | null;
  vrchatLinkedHow: VRChatLinkWay | null;
  discordUserId: string | null;
  discordLinkedHow: VRChatLinkWay | null;
  /** The VRChat account the applicant's profile-link answer names (their claim, not an identity). */
  claimedVRChatUserId: string | null;
}

/** What a decision needs to link the applications it covers (not marked as spam). */
export async function listLinkTargets(db: Pick<Database, "select">, kind: ApplicationKind, ids: readonly string[]): Promise<LinkTarget[]> {
  const wanted = ids.filter((id) => z.uuid().safeParse(id).success);
  if (wanted.length === 0) return [];
  if (kind === "event") {
    const rows = await db
      .select({
        id: eventApplications.id,
        eventId: eventApplications.eventId,
        status: eventApplications.status,
        vrchatUsername: eventApplications.vrchatUsername,
        discordHandle: eventApplications.discordId,
        vrchatUserId: eventApplications.vrchatUserId,
        vrchatDisplayName: eventApplications.vrchatDisplayName,
        vrchatLinkedHow: eventApplications.vrchatLinkedHow,
        discordUserId: eventApplications.discordUserId,
        discordLinkedHow: eventApplications.discordLinkedHow,
        answers: eventApplications.answers,
      })
      .from(eventApplications)
      .where(and(inArray(eventApplications.id, wanted), isNull(eventApplications.spamAt)));
    return rows.map(({ answers, ...row }) => ({ ...row, discordHandle: row.discordHandle ?? "", claimedVRChatUserId: claimIn(answers) }));
  }
  const rows = await db
    .select({
      id: applications.id,
      status: applications.status,
      vrchatUsername: applications.vrchatUsername,
      discordHandle: applications.discordId,
      vrchatUserId: applications.vrchatUserId,
      vrchatDisplayName: applications.vrchatDisplayName,
      vrchatLinkedHow: applications.vrchatLinkedHow,
      discordUserId: applications.discordUserId,
      discordLinkedHow: applications.discordLinkedHow,
      answers: applications.answers,
    })
    .from(applications)
    .where(and(inArray(applications.id, wanted), isNull(applications.spamAt)));
  return rows.map(({ answers, ...row }) => ({ ...row, claimedVRChatUserId: claimIn(answers) }));
}

/** The account the applicant's profile-link answer names, if any. */
const claimIn = (answers: readonly StoredAnswer[]) =>
  answers.map((answer) => (answer.type === "vrchat_profile" && typeof answer.value === "string" ? vrchatUserIdFrom(answer.value) : null)).find((id) => id !== null) ?? null;

export interface LinkOptions {
  /** The link a decision makes by itself, which never replaces one already made. */
  onlyIfUnlinked?: boolean;
  /** How a VRChat account was linked (a staff member's choice unless said): see VRCHAT_LINK_WAYS. */
  how?: VRChatLinkWay;
}

/**
 * Links an application to an account (null: unlinks it), in the history under `actor`. False when
 * nothing changed (no such application, the same account, or already linked with `onlyIfUnlinked`).
 * A VRChat account linked again by a stronger way (the applicant's proof of the account a staff
 * member or a name chose) changes how it is linked, though not the account.
 */
export async function linkAccount(
  db: Database,
  kind: ApplicationKind,
  applicationId: string,
  service: LinkedService,
  account: LinkedAccount | null,
  actor: HistoryActor,
  options: LinkOptions = {},
): Promise<boolean> {
  if (!columnsOf(kind, service) || !z.uuid().safeParse(applicationId).success) return false;
  return db.transaction((tx) => linkAccountIn(tx, kind, applicationId, service, account, actor, options));
}

/** linkAccount, inside a transaction the caller holds (a decision's). */
export async function linkAccountIn(
  tx: Executor,
  kind: ApplicationKind,
  applicationId: string,
  service: LinkedService,
  account: LinkedAccount | null,
  actor: HistoryActor,
  { onlyIfUnlinked = false, how = "staff" }: LinkOptions = {},
): Promise<boolean> {
  const columns = columnsOf(kind, service);
  if (!columns) return false;
  const { table } = columns;
  const [current] = await tx
    .select({ userId: columns.userId, displayName: columns.displayName, how: service === "vrchat" ? table.vrchatLinkedHow : table.discordLinkedHow })
    .from(table)
    .where(and(eq(table.id, applicationId), isNull(table.spamAt)))
    .for("update");
  if (!current) return false;
  if (onlyIfUnlinked && current.userId) return false;
  const sameAccount = (current.userId ?? null) === (account?.userId ?? null);
  // The same account, now proven by its owner or confirmed by a staff member: how it is linked changes.
  const strongerNow = account !== null && current.how !== "proven" && (how === "proven" || (how === "staff" && current.how !== "staff"));
  if (sameAccount && !strongerNow) return false;
  const set =
    service === "vrchat"
      ? {
          vrchatUserId: account?.userId ?? null,
          vrchatDisplayName: account?.displayName ?? null,
          vrchatProfileCheck: null,
          vrchatLinkedHow: account ? how : null,
          vrchatLinkedBy: account && how === "staff" ? actor.name : null,
        }
      : { discordUserId: account?.userId ?? null, discordDisplayName: account?.displayName ?? null, discordLinkedHow: account ? how : null };
  await tx.update(table).set(set).where(eq(table.id, applicationId));
  await tx.insert(applicationAuditLog).values({
    applicationKind: kind,
    applicationId,
    actorId: actor.id,
    actorName: actor.name,
    field: service,
    fromValue: current.userId ? `${current.displayName ?? ""} (${current.userId})` : null,
    toValue: account ? `${linkWords(service, how, sameAccount)} ${account.displayName} (${account.userId})` : "unlinked",
  });
  return true;
}

/** How a link reads in the history. */
function linkWords(service: LinkedService, how: VRChatLinkWay, sameAccount: boolean) {
  if (how === "proven") return service === "vrchat" ? "proven by a code in its bio:" : "proven by their Discord sign-in:";
  return how === "staff" && sameAccount ? "confirmed by staff:" : "linked to";
}

/** What every action's job carries: whose application, and which admin's decision caused it. */
const ActionSubjectSchema = z.object({
  applicationKind: z.enum(["group", "event", "join_request"]),
  applicationId: z.uuid(),
  actor: z.object({ id: z.string(), name: z.string() }),
});

/** An action's outcome ("Invite sent", "Failed: …") in the application's history, under the admin who decided. */
export async function recordActionOutcome(db: Database, service: LinkedService, payload: unknown, text: string) {
  const subject = ActionSubjectSchema.safeParse(payload);
  if (!subject.success) return;
  await db.insert(applicationAuditLog).values({
    applicationKind: subject.data.applicationKind,
    applicationId: subject.data.applicationId,
    actorId: z.uuid().safeParse(subject.data.actor.id).success ? subject.data.actor.id : null,
    actorName: subject.data.actor.name,
    field: service,
    toValue: truncate(text, 500),
  });
}
