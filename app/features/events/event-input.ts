/**
 * The admin's event form (spec section 5): title, world, date and time required; at least one
 * attendee or none for unlimited; the deadline, maximum and instructions only when applications are
 * required. Shared by the form and the action; the action's parse is the one that counts.
 */
import { z } from "zod";
import { singleLine } from "~/utils/text";
import { EVENT_TIMEZONES } from "./event-timing";

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
    worldName: line(200).pipe(z.string().min(1, { error: "World Name is required" })),
    applicationRequired: checkbox,
    applicationDeadline: optional(z.iso.date({ error: "Application Deadline must be a date" })),
    maxAttendees: optional(
      z.coerce
        .number({ error: "Max Attendees must be a number" })
        .int({ error: "Max Attendees must be a whole number" })
        .min(1, { error: "Max Attendees must be at least 1 (leave it empty for unlimited)" })
        .max(100_000),
    ),
    applicationInstructions: optional(text(5_000)),
    featured: checkbox,
  })
  .transform((input) =>
    input.applicationRequired
      ? input
      : { ...input, applicationDeadline: undefined, maxAttendees: undefined, applicationInstructions: undefined },
  );

export type EventInput = z.output<typeof EventInputSchema>;

/** The first problem, as the form shows it, and which field it concerns. */
export function firstEventInputError(error: z.ZodError) {
  const issue = error.issues[0]!;
  return { field: String(issue.path[0] ?? ""), error: issue.message };
}
