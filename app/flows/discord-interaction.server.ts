/**
 * A press of 'Approve' or 'Reject' in Discord's review channel (POST /discord/interactions): the
 * request is trusted only when Discord signed it, recently; the presser only when their Discord
 * account is linked to a member of the team whose role may decide that application. The decision
 * is the Sanctum's own (flows/decide.server), under '{username} in Discord'. Nothing else of the
 * site is reachable this way: the answer is one of Discord's interaction responses, or a refusal.
 */
import type { KeyObject } from "node:crypto";
import type { ApplicationKind } from "~/db/enums";
import { findMemberByDiscord } from "~/features/accounts/team.server";
import { NEEDS_PROOF_MESSAGE } from "~/features/applications/proof";
import { describeApplication } from "~/features/applications/review.server";
import {
  ephemeral,
  getReviewMessage,
  InteractionSchema,
  InteractionType,
  isSignedByDiscord,
  messageBody,
  modalValue,
  parseCustomId,
  REASON_MAX,
  rejectModal,
  ResponseType,
} from "~/features/discord/discord-review.server";
import { getEvent } from "~/features/events/events.server";
import { lt } from "drizzle-orm";
import { discordInteractions } from "~/db/schema";
import { heldForTwoFactor } from "~/utils/admin-guard.server";
import { allows, allowsOnEvent } from "~/utils/roles";
import { log } from "~/utils/log.server";
import { prefix } from "~/utils/text";
import { decideApplication, deciderName, findReview, type DecideServices, type Decider } from "./decide.server";
import { m } from "~/paraglide/messages";
import { inLanguage, personLanguage } from "~/utils/language.server";
import { statusLabel } from "~/utils/status-label";

/** How long a press waits for its decision before Discord is told it will see the outcome later. */
const ANSWER_WITHIN_MS = 2_500;

/** Refusals and answers to a press, in the presser's language (the site's default until they are known as staff). */
export const PRESS_TEXTS = {
  notStaff: m.dsc_not_staff,
  notForRole: m.dsc_not_for_role,
  unknownButton: m.dsc_unknown_button,
  gone: m.dsc_gone,
  needsTwoFactor: m.dsc_needs_two_factor,
  withdrawn: m.dsc_withdrawn,
  replayed: m.dsc_replayed,
  full: m.dsc_full,
};

/** Who decided first, for a press that came after them. */
function alreadyDecided(application: { status: string; decidedBy: string | null } | null): string {
  if (!application) return PRESS_TEXTS.gone();
  const { status, decidedBy } = application;
  if (status === "approved") return decidedBy ? m.dsc_already_approved_by({ by: decidedBy }) : m.dsc_already_approved();
  if (status === "rejected") return decidedBy ? m.dsc_already_rejected_by({ by: decidedBy }) : m.dsc_already_rejected();
  return m.dsc_already_other({ status: statusLabel(status) });
}

export interface InteractionRequest {
  body: string;
  signature: string | null;
  timestamp: string | null;
}

export type InteractionAnswer = { status: 200 | 400 | 401; body: unknown };

export interface InteractionServices extends DecideServices {
  /** REQUIRE_ADMIN_2FA: every staff member needs two-factor sign-in to decide. */
  requireAll2fa: boolean;
}

export async function answerInteraction(services: InteractionServices, key: KeyObject, request: InteractionRequest, now: Date): Promise<InteractionAnswer> {
  if (!isSignedByDiscord(key, request, request.body, now)) return { status: 401, body: { error: "invalid request signature" } };
  let json: unknown;
  try {
    json = JSON.parse(request.body);
  } catch {
    return { status: 400, body: { error: "the body is not JSON" } };
  }
  const parsed = InteractionSchema.safeParse(json);
  if (!parsed.success) return { status: 400, body: { error: "not an interaction" } };
  const interaction = parsed.data;
  if (interaction.type === InteractionType.ping) return { status: 200, body: { type: ResponseType.pong } };
  if (interaction.type !== InteractionType.component && interaction.type !== InteractionType.modalSubmit) {
    return { status: 200, body: ephemeral(PRESS_TEXTS.unknownButton()) };
  }
  const target = parseCustomId(interaction.data?.custom_id ?? "");
  if (!target || (interaction.type === InteractionType.modalSubmit) !== (target.action === "reason")) {
    return { status: 200, body: ephemeral(PRESS_TEXTS.unknownButton()) };
  }
  // A signed request replayed within its five minutes is the same press: acted on once.
  if (!interaction.id) return { status: 400, body: { error: "an interaction without its id" } };
  if (!(await firstSeen(services.db, interaction.id, now))) return { status: 200, body: ephemeral(PRESS_TEXTS.replayed()) };
  return { status: 200, body: await press(services, interaction, target) };
}

/** Records the interaction's id; false when it was seen before. */
async function firstSeen(db: DecideServices["db"], id: string, now: Date): Promise<boolean> {
  const [row] = await db.insert(discordInteractions).values({ id, receivedAt: now }).onConflictDoNothing().returning({ id: discordInteractions.id });
  return row !== undefined;
}

/** Interactions older than an hour can no longer be replayed (Discord's signature lasts five minutes): their ids go. */
export async function forgetOldInteractions(db: DecideServices["db"], now: Date) {
  await db.delete(discordInteractions).where(lt(discordInteractions.receivedAt, new Date(now.getTime() - 60 * 60_000)));
}

async function press(
  services: InteractionServices,
  interaction: ReturnType<typeof InteractionSchema.parse>,
  target: { action: "approve" | "reject" | "reason"; kind: ApplicationKind; id: string },
) {
  const { db } = services;
  const presserId = interaction.member?.user.id ?? interaction.user?.id ?? "";
  const staff = presserId ? await findMemberByDiscord(db, presserId) : null;
  if (!staff) return ephemeral(PRESS_TEXTS.notStaff());
  // A staff member reads the answers in the language they chose for the Sanctum.
  return inLanguage(personLanguage(staff.language), () => pressBy(services, staff, interaction, target));
}

async function pressBy(
  services: InteractionServices,
  staff: NonNullable<Awaited<ReturnType<typeof findMemberByDiscord>>>,
  interaction: ReturnType<typeof InteractionSchema.parse>,
  target: { action: "approve" | "reject" | "reason"; kind: ApplicationKind; id: string },
) {
  const { db } = services;
  // The same rule as the Sanctum's: a member held at the two-factor set-up decides nothing anywhere.
  if (await heldForTwoFactor(db, services.requireAll2fa, staff)) return ephemeral(PRESS_TEXTS.needsTwoFactor());
  const application = await describeApplication(db, target.kind, target.id);
  if (!application) return ephemeral(PRESS_TEXTS.gone());
  const event = application.eventId ? await getEvent(db, application.eventId) : null;
  if (target.kind === "event" && !event) return ephemeral(PRESS_TEXTS.gone());
  const may = event ? allowsOnEvent(staff, "review", event) : allows(staff.role, "group.review");
  if (!may) return ephemeral(PRESS_TEXTS.notForRole());
  if (application.status === "withdrawn") return ephemeral(PRESS_TEXTS.withdrawn());
  if (application.status === "approved" || application.status === "rejected") {
    return ephemeral(alreadyDecided(application));
  }
  if (target.action === "reject") return rejectModal(target.kind, target.id);

  const status = target.action === "approve" ? "approved" : "rejected";
  const reason = target.action === "reason" ? prefix(modalValue(interaction.data?.components, "reason") ?? "", REASON_MAX) : null;
  const review = await findReview(db, event?.id);
  if (!review) return ephemeral(PRESS_TEXTS.gone());
  const decider: Decider = { id: staff.id, username: staff.username, via: "discord", role: staff.role };
  const deciding = decideApplication(services, review, { id: target.id, status, reason }, decider);
  const late = Symbol("late");
  const timer = new Promise<typeof late>((resolve) => setTimeout(() => resolve(late), ANSWER_WITHIN_MS).unref());
  const outcome = await Promise.race([deciding, timer]);
  if (outcome === late) {
    // Still deciding (VRChat slow to answer): Discord is told the press was taken; the decision's
    // own edit of the review message shows its outcome once it is made.
    deciding.catch((error: unknown) => log.error("a decision from Discord failed", { error }));
    return { type: ResponseType.deferredUpdate };
  }
  if (outcome.kind === "missing") return ephemeral(PRESS_TEXTS.gone());
  if (outcome.kind === "needs-proof") return ephemeral(m.dsc_nothing_changed({ reason: NEEDS_PROOF_MESSAGE() }));
  if (outcome.kind === "full") return ephemeral(PRESS_TEXTS.full());
  if (outcome.kind === "conflict") {
    const now = await describeApplication(db, target.kind, target.id);
    return ephemeral(now?.status === "withdrawn" ? PRESS_TEXTS.withdrawn() : alreadyDecided(now));
  }
  const message = await getReviewMessage(db, target.kind, target.id);
  const by = deciderName(decider);
  if (!message) return ephemeral(status === "approved" ? m.dsc_decided_approved({ by }) : m.dsc_decided_rejected({ by }));
  return { type: ResponseType.updateMessage, data: messageBody({ embed: message.embed, outcome: { status, by }, kind: target.kind, id: target.id }) };
}
