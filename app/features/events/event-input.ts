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
import { vrchatWorldIdFrom } from "~/utils/vrchat-world-link";
import { defaultEndFor, eventEnd, eventStart, EVENT_TIMEZONES } from "./event-timing";

/** The longest an event may last: a night, or a weekend's festival. */
export const MAX_EVENT_DAYS = 7;
export const WORLD_LINK_ERROR = "That is not a VRChat world: paste the world's link (https://vrchat.com/home/world/wrld_…) or its id (wrld_…).";

const text = (max: number) => z.string().trim().max(max, { error: `at most ${max} characters` });
/** A one-line text (a title, a world's name): line breaks and control characters become a space. */
const line = (max: number) => z.string().transform(singleLine).pipe(z.string().max(max, { error: `at most ${max} characters` }));
const checkbox = z.preprocess((value) => value === "on" || value === "true" || value === true, z.boolean());
const optional = <T extends z.ZodType>(schema: T) =>
  z.preprocess((value) => (typeof value === "string" && value.trim() === "" ? undefined : value), schema.optional());

export const EventInputSchema = z
  .object({
    title: line(200).pipe(z.string().min(1, { error: "Title is required" })),
    description: text(10_000).default(""),
    eventDate: z.iso.date({ error: "Event Date is required" }),
    eventTime: z.string().regex(/^([01]\d|2[0-3]):[0-5]\d(:[0-5]\d)?$/, { error: "Event Time is required" }),
    timezone: z.enum(EVENT_TIMEZONES, { error: "Choose a timezone" }).default("UTC"),
    /** "2026-12-01T22:00" on the event zone's clocks; empty: two hours after the start. */
    ends: optional(z.string().regex(/^\d{4}-\d{2}-\d{2}T([01]\d|2[0-3]):[0-5]\d(:[0-5]\d)?$/, { error: "Ends must be a date and a time" })),
    /** Required unless a world link is given: VRChat's name for the world fills it then. */
    worldName: line(200).default(""),
    worldLink: optional(
      z
        .string()
        .max(500, { error: WORLD_LINK_ERROR })
        .transform((value, context) => {
          const id = vrchatWorldIdFrom(value);
          if (!id) context.addIssue({ code: "custom", message: WORLD_LINK_ERROR });
          return id ?? "";
        }),
    ),
    applicationRequired: checkbox,
    requiresProof: checkbox,
    applicationDeadline: optional(z.iso.date({ error: "Application Deadline must be a date" })),
    maxAttendees: optional(
      z.coerce
        .number({ error: "Max Attendees must be a number" })
        .int({ error: "Max Attendees must be a whole number" })
        .min(1, { error: "Max Attendees must be at least 1 (leave it empty for unlimited)" })
        .max(100_000),
    ),
    applicationInstructions: optional(text(5_000)),
    waitlistPromotion: z.enum(WAITLIST_PROMOTIONS, { error: "Choose what happens when a place frees" }).default("pending"),
    instanceLead: z
      .string()
      .default("15")
      .refine((value) => value === "never" || (INSTANCE_LEADS as readonly number[]).includes(Number(value)), { error: "Choose when the instance opens" })
      .transform((value) => (value === "never" ? null : Number(value))),
    instanceRegion: z.enum(INSTANCE_REGIONS, { error: "Choose a region VRChat lists" }).default("us"),
    instanceAccess: z.enum(INSTANCE_ACCESS, { error: "Choose who may enter the instance" }).default("members"),
    featured: checkbox,
  })
  .check((context) => {
    const input = context.value;
    if (!input.worldName && !input.worldLink) context.issues.push({ code: "custom", input, path: ["worldName"], message: "World Name is required" });
  })
  .transform((input, context) => {
    const { ends, worldLink, instanceLead, ...rest } = input;
    const end = ends ? { endDate: ends.slice(0, 10), endTime: ends.slice(11, 16) } : defaultEndFor(input.eventDate, input.eventTime, input.timezone);
    const start = eventStart(input).getTime();
    const length = eventEnd({ ...input, ...end }).getTime() - start;
    if (length <= 0) context.addIssue({ code: "custom", path: ["ends"], message: "Ends must be after the start" });
    else if (length > MAX_EVENT_DAYS * 86_400_000) context.addIssue({ code: "custom", path: ["ends"], message: `An event can last at most ${MAX_EVENT_DAYS} days` });
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
