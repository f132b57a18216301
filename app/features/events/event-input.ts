/**
 * The admin's event form (spec section 5): title, world, date and time required; at least one
 * attendee or none for unlimited; the deadline, maximum and instructions only when applications are
 * required. Shared by the form and the action; the action's parse is the one that counts.
 */
import { z } from "zod";
import { INSTANCE_ACCESS, INSTANCE_REGIONS, WAITLIST_PROMOTIONS } from "~/db/enums";

/** 'Open the instance': how many minutes before the start (or never). */
export const INSTANCE_LEADS = [0, 5, 10, 15, 30, 45, 60, 90, 120] as const;
import { singleLine } from "~/utils/text";
import { m } from "~/paraglide/messages";
import { formatCount } from "~/utils/language";
import { vrchatWorldIdFrom } from "~/utils/vrchat-world-link";
import { defaultEndFor } from "./event-editor-times";
import { eventEnd, eventStart, EVENT_TIMEZONES } from "./event-timing";

/** The longest an event may last: a night, or a weekend's festival. */
export const MAX_EVENT_DAYS = 7;
const worldLinkError = () => m.aev_world_link_error();

const text = (max: number) => z.string().trim().max(max, { error: () => m.aev_at_most({ max }) });
/** A one-line text (a title, a world's name): line breaks and control characters become a space. */
const line = (max: number) => z.string().transform(singleLine).pipe(z.string().max(max, { error: () => m.aev_at_most({ max }) }));
const checkbox = z.preprocess((value) => value === "on" || value === "true" || value === true, z.boolean());
const optional = <T extends z.ZodType>(schema: T) =>
  z.preprocess((value) => (typeof value === "string" && value.trim() === "" ? undefined : value), schema.optional());

export const EventInputSchema = z
  .object({
    title: line(200).pipe(z.string().min(1, { error: () => m.aev_title_required() })),
    description: text(10_000).default(""),
    eventDate: z.iso.date({ error: () => m.aev_date_required() }),
    eventTime: z.string().regex(/^([01]\d|2[0-3]):[0-5]\d(:[0-5]\d)?$/, { error: () => m.aev_time_required() }),
    timezone: z.enum(EVENT_TIMEZONES, { error: () => m.aev_choose_timezone() }).default("UTC"),
    /** "2026-12-01T22:00" on the event zone's clocks; empty: two hours after the start. */
    ends: optional(z.string().regex(/^\d{4}-\d{2}-\d{2}T([01]\d|2[0-3]):[0-5]\d(:[0-5]\d)?$/, { error: () => m.aev_ends_format() })),
    /** Required unless a world link is given: VRChat's name for the world fills it then. */
    worldName: line(200).default(""),
    worldLink: optional(
      z
        .string()
        .max(500, { error: worldLinkError })
        .transform((value, context) => {
          const id = vrchatWorldIdFrom(value);
          if (!id) context.addIssue({ code: "custom", message: worldLinkError() });
          return id ?? "";
        }),
    ),
    applicationRequired: checkbox,
    requiresProof: checkbox,
    applicationDeadline: optional(z.iso.date({ error: () => m.aev_deadline_format() })),
    maxAttendees: optional(
      z.coerce
        .number({ error: () => m.aev_max_number() })
        .int({ error: () => m.aev_max_whole() })
        .min(1, { error: () => m.aev_max_min() })
        .max(100_000, { error: () => m.aev_max_max({ max: formatCount(100_000) }) }),
    ),
    applicationInstructions: optional(text(5_000)),
    waitlistPromotion: z.enum(WAITLIST_PROMOTIONS, { error: () => m.aev_choose_promotion() }).default("pending"),
    instanceLead: z
      .string()
      .default("15")
      .refine((value) => value === "never" || (INSTANCE_LEADS as readonly number[]).includes(Number(value)), { error: () => m.aev_choose_lead() })
      .transform((value) => (value === "never" ? null : Number(value))),
    instanceRegion: z.enum(INSTANCE_REGIONS, { error: () => m.aev_choose_region() }).default("us"),
    instanceAccess: z.enum(INSTANCE_ACCESS, { error: () => m.aev_choose_access() }).default("members"),
    featured: checkbox,
    discordEvent: checkbox,
  })
  .check((context) => {
    const input = context.value;
    if (!input.worldName && !input.worldLink) context.issues.push({ code: "custom", input, path: ["worldName"], message: m.aev_world_name_required() });
  })
  .transform((input, context) => {
    const { ends, worldLink, instanceLead, ...rest } = input;
    const end = ends ? { endDate: ends.slice(0, 10), endTime: ends.slice(11, 16) } : defaultEndFor(input.eventDate, input.eventTime, input.timezone);
    const start = eventStart(input).getTime();
    const length = eventEnd({ ...input, ...end }).getTime() - start;
    if (length <= 0) context.addIssue({ code: "custom", path: ["ends"], message: m.aev_ends_after_start() });
    else if (length > MAX_EVENT_DAYS * 86_400_000) context.addIssue({ code: "custom", path: ["ends"], message: m.aev_too_long({ days: MAX_EVENT_DAYS }) });
    const event = { ...rest, ...end, worldId: worldLink ?? null, instanceLeadMinutes: instanceLead };
    return event.applicationRequired
      ? event
      : { ...event, requiresProof: false, applicationDeadline: undefined, maxAttendees: undefined, applicationInstructions: undefined };
  });

export type EventInput = z.output<typeof EventInputSchema>;

/** The first problem, as the form shows it, and which field it concerns. */
export function firstEventInputError(error: z.ZodError) {
  const issue = error.issues[0]!;
  return { field: String(issue.path[0] ?? ""), error: issue.message };
}

/** An event as saved: the form's fields, and what VRChat said of its world. */
export type EventToSave = EventInput & { worldImageUrl: string | null; worldCheckedAt: Date | null };
