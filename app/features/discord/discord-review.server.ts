/**
 * Review in Discord: each new application is posted to the staff's review channel with 'Approve'
 * and 'Reject' buttons; Discord calls the site back when one is pressed (an "interaction"), signed
 * with the application's Ed25519 key; once decided, wherever that was, the message is edited to say
 * the outcome and who decided, without its buttons. Posts, edits and the daily reminder are outbox
 * jobs (Discord down: they wait and are tried again).
 *
 * Facts from Discord's developer documentation: interactions carry `X-Signature-Ed25519` (hex) and
 * `X-Signature-Timestamp` and are signed over timestamp + body; a PING (type 1) is answered with
 * type 1; a button press is type 3, a modal submission type 5; answers: 4 (a message, `flags: 64`
 * for one only the presser sees), 6 (acknowledge, the message edited later), 7 (edit the message),
 * 9 (a modal). Buttons live in an action row (type 1): style 3 green, 4 red; a modal's text input
 * (type 4) sits in a Label (type 18); a submission returns it with its `value`.
 */
import { createPublicKey, verify, type KeyObject } from "node:crypto";
import { and, eq, sql } from "drizzle-orm";
import { z } from "zod";
import type { Database } from "~/db/db.server";
import { APPLICATION_STATUSES, type ApplicationKind, type ApplicationStatus } from "~/db/enums";
import { applications, discordReviewMessages, eventApplications, outbox } from "~/db/schema";
import { escapeDiscordMarkdown, truncate } from "~/utils/text";
import type { DiscordBot } from "./discord-bot.server";
import { m } from "~/paraglide/messages";
import { APPLICANT_ACTOR, actorLabel } from "~/utils/actors";
import { formatCount } from "~/utils/language";
import { defaultLanguage, inLanguage } from "~/utils/language.server";
import { statusLabel } from "~/utils/status-label";

/** A request older (or newer) than this is refused: a replayed press is not a press. */
export const INTERACTION_MAX_AGE_MS = 5 * 60_000;

export const InteractionType = { ping: 1, component: 3, modalSubmit: 5 } as const;
export const ResponseType = { pong: 1, message: 4, deferredUpdate: 6, updateMessage: 7, modal: 9 } as const;
const EPHEMERAL = 64;

/** The public key of the Discord application, from its hex form in DISCORD_PUBLIC_KEY. */
export function interactionKey(hex: string): KeyObject {
  return createPublicKey({ key: { kty: "OKP", crv: "Ed25519", x: Buffer.from(hex, "hex").toString("base64url") }, format: "jwk" });
}

/** Whether Discord signed this request, recently. */
export function isSignedByDiscord(key: KeyObject, headers: { signature: string | null; timestamp: string | null }, body: string, now: Date): boolean {
  const { signature, timestamp } = headers;
  if (!signature || !timestamp || !/^[0-9a-f]{128}$/i.test(signature) || !/^\d{1,12}$/.test(timestamp)) return false;
  if (Math.abs(now.getTime() - Number(timestamp) * 1000) > INTERACTION_MAX_AGE_MS) return false;
  return verify(null, Buffer.from(timestamp + body), key, Buffer.from(signature, "hex"));
}

/** What a button or modal names: a decision on one application. */
const CUSTOM_ID = /^dwell:(approve|reject|reason):(group|event):([0-9a-f-]{36})$/;

export function reviewCustomId(action: "approve" | "reject" | "reason", kind: ApplicationKind, id: string) {
  return `dwell:${action}:${kind}:${id}`;
}

export function parseCustomId(customId: string): { action: "approve" | "reject" | "reason"; kind: ApplicationKind; id: string } | null {
  const match = CUSTOM_ID.exec(customId);
  if (!match || !z.uuid().safeParse(match[3]).success) return null;
  return { action: match[1] as "approve" | "reject" | "reason", kind: match[2] as ApplicationKind, id: match[3]! };
}

export const InteractionSchema = z.object({
  /** Discord's id of this interaction: a replay carries the same. */
  id: z.string().regex(/^\d{1,25}$/).optional(),
  type: z.number().int(),
  data: z.object({ custom_id: z.string().max(100).optional(), components: z.array(z.unknown()).optional() }).optional(),
  member: z.object({ user: z.object({ id: z.string() }) }).optional(),
  user: z.object({ id: z.string() }).optional(),
  message: z.object({ id: z.string(), channel_id: z.string().optional() }).optional(),
});
export type Interaction = z.infer<typeof InteractionSchema>;

/** The text a modal's field was given, wherever in its components it sits. */
export function modalValue(components: unknown, customId: string): string | null {
  if (Array.isArray(components)) {
    for (const part of components) {
      const found = modalValue(part, customId);
      if (found !== null) return found;
    }
    return null;
  }
  if (!components || typeof components !== "object") return null;
  const part = components as { custom_id?: unknown; value?: unknown; component?: unknown; components?: unknown };
  if (part.custom_id === customId && typeof part.value === "string") return part.value;
  return modalValue(part.component, customId) ?? modalValue(part.components, customId);
}

export const ephemeral = (content: string) => ({ type: ResponseType.message, data: { content, flags: EPHEMERAL, allowed_mentions: { parse: [] } } });

export const REASON_MAX = 500;

/** The modal 'Reject' opens: an optional reason, added to the applicant's message. */
export function rejectModal(kind: ApplicationKind, id: string) {
  return {
    type: ResponseType.modal,
    data: {
      custom_id: reviewCustomId("reason", kind, id),
      title: m.dsc_reject_title(),
      components: [
        {
          type: 18,
          label: m.dsc_reason_label(),
          description: m.dsc_reason_hint(),
          component: { type: 4, custom_id: "reason", style: 2, required: false, max_length: REASON_MAX },
        },
      ],
    },
  };
}

/** One application's review message, as it stands: its embed, and its buttons or its outcome. */
export interface ReviewMessage {
  embed: Record<string, unknown>;
  outcome: { status: ApplicationStatus; by: string } | null;
  kind: ApplicationKind;
  id: string;
}

const OUTCOME_WORDS: Partial<Record<ApplicationStatus, (inputs: { by: string }) => string>> = {
  approved: m.dsc_outcome_approved,
  rejected: m.dsc_outcome_rejected,
  withdrawn: m.dsc_outcome_withdrawn,
};
/** Statuses that end the review: the message shows them and loses its buttons. */
const closes = (status: ApplicationStatus) => status === "approved" || status === "rejected" || status === "withdrawn";

export function outcomeLine(outcome: { status: ApplicationStatus; by: string }) {
  const by = escapeDiscordMarkdown(actorLabel(outcome.by));
  return OUTCOME_WORDS[outcome.status]?.({ by }) ?? m.dsc_outcome_other({ status: statusLabel(outcome.status), by });
}

/** The review message as the channel shows it: the site's default language, whoever pressed or decided. */
export function messageBody(message: ReviewMessage) {
  return inLanguage(defaultLanguage(), () => ({
    content: message.outcome ? outcomeLine(message.outcome) : "",
    embeds: [message.embed],
    allowed_mentions: { parse: [] },
    components: message.outcome
      ? []
      : [
          {
            type: 1,
            components: [
              { type: 2, style: 3, label: m.dsc_approve(), custom_id: reviewCustomId("approve", message.kind, message.id) },
              { type: 2, style: 4, label: m.dsc_reject(), custom_id: reviewCustomId("reject", message.kind, message.id) },
            ],
          },
        ],
  }));
}

const EmbedSchema = z.record(z.string(), z.unknown());
const Subject = { applicationKind: z.enum(["group", "event"]), applicationId: z.uuid() };
export const ReviewJobSchema = z.union([
  z.object({ job: z.literal("post"), ...Subject, embed: EmbedSchema }),
  z.object({ job: z.literal("edit"), ...Subject, status: z.enum(APPLICATION_STATUSES), by: z.string().max(200) }),
  z.object({ job: z.literal("reminder"), waiting: z.number().int().positive(), url: z.string().url(), day: z.string() }),
]);
export type ReviewJob = z.infer<typeof ReviewJobSchema>;

/** Queues a review job (in the caller's transaction, with what caused it). */
export async function queueReviewJob(tx: Pick<Database, "insert">, job: ReviewJob, at: Date) {
  await tx.insert(outbox).values({ target: "discord_review", payload: job, sourceId: "applicationId" in job ? job.applicationId : null, nextAttemptAt: at });
}

/**
 * An applicant edited their answers: the review message shows the new embed from its next edit
 * (queued here, in the caller's transaction). Not posted yet: its post job still carries the old
 * embed, so that job's embed is replaced too.
 */
export async function replaceReviewEmbed(tx: Pick<Database, "insert" | "update">, kind: ApplicationKind, applicationId: string, embed: Record<string, unknown>, status: ApplicationStatus, at: Date) {
  await tx
    .update(discordReviewMessages)
    .set({ embed })
    .where(and(eq(discordReviewMessages.applicationKind, kind), eq(discordReviewMessages.applicationId, applicationId)));
  await tx
    .update(outbox)
    .set({ payload: sql`jsonb_set(${outbox.payload}, '{embed}', ${JSON.stringify(embed)}::jsonb)` })
    .where(and(eq(outbox.target, "discord_review"), eq(outbox.sourceId, applicationId), eq(outbox.status, "pending"), sql`${outbox.payload}->>'job' = 'post'`));
  await queueReviewJob(tx, { job: "edit", applicationKind: kind as "group" | "event", applicationId, status, by: "" }, at);
}

/** The message posted for an application, and its embed (what an edit keeps). */
export async function getReviewMessage(db: Pick<Database, "select">, kind: ApplicationKind, applicationId: string) {
  const [row] = await db
    .select({ channelId: discordReviewMessages.channelId, messageId: discordReviewMessages.messageId, embed: discordReviewMessages.embed })
    .from(discordReviewMessages)
    .where(and(eq(discordReviewMessages.applicationKind, kind), eq(discordReviewMessages.applicationId, applicationId)));
  return row ?? null;
}

async function currentStatus(db: Pick<Database, "select">, kind: ApplicationKind, id: string): Promise<ApplicationStatus | null> {
  const table = kind === "event" ? eventApplications : applications;
  const [row] = await db.select({ status: table.status }).from(table).where(eq(table.id, id));
  return row?.status ?? null;
}

/**
 * The outbox channel of the review: posts (once: a post already made is not made again), edits
 * (the message as the decision left it), and the daily reminder line.
 */
export function createReviewChannel({ db, bot, channelId }: { db: Database; bot: DiscordBot; channelId: string }) {
  async function post(job: Extract<ReviewJob, { job: "post" }>): Promise<string> {
    const kind = job.applicationKind;
    if (await getReviewMessage(db, kind, job.applicationId)) return "Already posted for review in Discord";
    const status = await currentStatus(db, kind, job.applicationId);
    if (status === null) return "The application is gone: nothing posted";
    // Decided before its post went out (Discord was down): it is posted with its outcome.
    const outcome = closes(status) ? { status, by: status === "withdrawn" ? APPLICANT_ACTOR : m.actor_sanctum() } : null;
    const sent = await bot.postMessage(channelId, messageBody({ embed: job.embed, outcome, kind, id: job.applicationId }));
    await db
      .insert(discordReviewMessages)
      .values({ applicationKind: kind, applicationId: job.applicationId, channelId, messageId: sent.id, embed: job.embed })
      .onConflictDoNothing();
    return "Posted for review in Discord";
  }

  async function edit(job: Extract<ReviewJob, { job: "edit" }>): Promise<string> {
    const message = await getReviewMessage(db, job.applicationKind, job.applicationId);
    if (!message) return "No review message to edit";
    const outcome = closes(job.status) ? { status: job.status, by: job.by } : null;
    await bot.editMessage(message.channelId, message.messageId, messageBody({ embed: message.embed, outcome, kind: job.applicationKind, id: job.applicationId }));
    return "Review message updated in Discord";
  }

  async function remind(job: Extract<ReviewJob, { job: "reminder" }>): Promise<string> {
    const content = job.waiting === 1 ? m.dsc_reminder_one({ url: job.url }) : m.dsc_reminder({ count: formatCount(job.waiting), url: job.url });
    await bot.postMessage(channelId, { content: truncate(content, 2000), allowed_mentions: { parse: [] } });
    return "Reminder posted";
  }

  return bot.jobChannel("discord_review", ReviewJobSchema, (job) => (job.job === "post" ? post(job) : job.job === "edit" ? edit(job) : remind(job)));
}
