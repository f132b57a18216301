/**
 * An applicant proves which Discord account is theirs by signing in with Discord from their status
 * page (the same Discord application as the staff's link, scope `identify`). A handle typed in the form
 * is a claim anyone can make; this is the account itself. It is linked as proven, over any link a
 * decision made from the handle, and what an approval already decided (the DM, the member role) then
 * reaches it, once: through the same function as a staff member's choice (flows/decide).
 */
import { and, eq } from "drizzle-orm";
import type { Database } from "~/db/db.server";
import { applications, eventApplications } from "~/db/schema";
import { getApplicationStatus } from "~/features/decisions/decisions.server";
import { findReview, linkDiscordAccount, type DecideServices, type Decider } from "./decide.server";

/** Open to a link while it is still the applicant's: not once rejected or withdrawn. */
const OPEN = ["pending", "waitlist", "approved"];

/** The applicant's own hand, in the history. */
const APPLICANT: Decider = { id: "", username: "the applicant (their Discord sign-in)", via: "sanctum", role: null };

export type ApplicantDiscordView = { kind: "proven"; name: string } | { kind: "offer" } | { kind: "none" };

/** What the status page offers: the account they proved, or 'Link your Discord' (reads only). */
export async function applicantDiscordView(db: Pick<Database, "select">, application: { kind: "group" | "event"; id: string; status: string }): Promise<ApplicantDiscordView> {
  const table = application.kind === "event" ? eventApplications : applications;
  const [row] = await db.select({ name: table.discordDisplayName, how: table.discordLinkedHow }).from(table).where(and(eq(table.id, application.id)));
  if (row?.how === "proven") return { kind: "proven", name: row.name ?? "" };
  return OPEN.includes(application.status) ? { kind: "offer" } : { kind: "none" };
}

/** The status link's application, if it is still open to a link (null: unknown, or closed). */
export async function openForDiscord(db: Database, token: string, now: Date) {
  const status = await getApplicationStatus(db, token, now);
  return status && OPEN.includes(status.status) ? status : null;
}

export type ApplicantDiscordOutcome = { kind: "linked"; acting: boolean } | { kind: "closed" };

/** The account Discord said signed in, linked to the application behind the status link as proven. */
export async function linkApplicantDiscord(services: DecideServices, token: string, account: { userId: string; name: string }, now: Date): Promise<ApplicantDiscordOutcome> {
  const status = await openForDiscord(services.db, token, now);
  if (!status) return { kind: "closed" };
  const review = await findReview(services.db, status.eventId ?? undefined);
  if (!review) return { kind: "closed" };
  const linked = await linkDiscordAccount(services, review, status.id, { userId: account.userId, displayName: account.name }, APPLICANT, "proven");
  return linked.kind === "linked" ? linked : { kind: "closed" };
}
