import type { ApplicationNotification } from "./notification";

/** A notification for the channel tests, with answers chosen to be awkward. */
export function sampleNotification(overrides: Partial<ApplicationNotification> = {}): ApplicationNotification {
  return {
    type: "event_application",
    event_title: "Masquerade <Night> & Day",
    vrchat_username: "Moth",
    discord_id: "moth#0001",
    submitted_at: "2026-11-21T18:00:00.000Z",
    answers: [
      { question: "Why do you wish to attend?", answer: "<script>alert(1)</script> & @everyone <@123>" },
      { question: "Anything else?", answer: "" },
    ],
    ...overrides,
  };
}
