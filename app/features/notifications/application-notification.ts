import type { ApplicationNotification } from "./notification";

/** The notification of a stored application (structurally typed: no import of another feature). */
export function toApplicationNotification(
  application: {
    scope: { kind: "group" | "event" };
    vrchatUsername: string;
    discordId: string;
    submittedAt: Date;
    /** "waitlist" when every place of the event was taken. */
    status?: string;
    answers: { question: string; answer: string }[];
  },
  eventTitle: string | null,
  eventUrl: string | null = null,
): ApplicationNotification {
  return {
    type: application.scope.kind === "event" ? "event_application" : "group_application",
    event_title: application.scope.kind === "event" ? eventTitle : null,
    event_url: application.scope.kind === "event" ? eventUrl : null,
    vrchat_username: application.vrchatUsername,
    discord_id: application.discordId,
    submitted_at: application.submittedAt.toISOString(),
    answers: application.answers,
    ...(application.status === "waitlist" ? { waitlist: true } : {}),
  };
}
