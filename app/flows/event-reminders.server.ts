/**
 * Reminders before an event (EVENT_REMINDERS, by default a day and an hour before): each approved
 * attendee with a linked Discord account gets a DM, and the announcement channel one post per
 * reminder time for an open event. Each is sent once (a restart, two processes or a later edit of the
 * event never send it twice); when several are due at once (the server was down), only the nearest
 * goes and the others are skipped; a reminder whose time passed before the attendee was approved is
 * skipped (and a channel reminder whose time passed before the event was made); withdrawn or rejected
 * attendees get none. The DM carries a fresh link to the attendee's own status page (the way in and
 * 'Withdraw'); its text is not kept once sent. Called by the server's 30-second look.
 */
import { createHash } from "node:crypto";
import { href } from "react-router";
import type { Database } from "~/db/db.server";
import { listApprovedWithDiscord } from "~/features/applications/capacity.server";
import { mintStatusLink } from "~/features/decisions/decisions.server";
import { queueDiscordActions } from "~/features/discord/discord-jobs.server";
import { claimReminder, listEventsToRemind } from "~/features/events/event-reminders.server";
import { eventStart, formatLongDateTime, zoneOf } from "~/features/events/event-timing";
import { queueAnnouncement } from "~/features/notifications/discord.server";
import { m } from "~/paraglide/messages";
import { intlLocale } from "~/utils/language";
import { personLanguage, inLanguage } from "~/utils/language.server";
import { escapeDiscordMarkdown } from "~/utils/text";

export interface ReminderServices {
  db: Database;
  /** Minutes before the start, largest first (EVENT_REMINDERS). */
  leads: readonly number[];
  /** The Discord bot is configured (DMs). */
  directMessages: boolean;
  /** The announcement channel is configured. */
  announce: boolean;
  siteOrigin: string;
  wake: () => void;
}

/** "in 1 hour", "in 24 hours", "in 2 days", "in 30 minutes": how far off the start is, in the current language's words. */
export function startsIn(ms: number): string {
  const minutes = Math.max(1, Math.round(ms / 60_000));
  const words = new Intl.RelativeTimeFormat(intlLocale(), { numeric: "always" });
  const plural = (n: number, unit: "day" | "hour" | "minute") => words.format(n, unit);
  if (minutes >= 2 * 1440 && minutes % 1440 === 0) return plural(minutes / 1440, "day");
  if (minutes >= 60 && minutes % 60 === 0) return plural(minutes / 60, "hour");
  if (minutes >= 120) return plural(Math.round(minutes / 60), "hour");
  return plural(minutes, "minute");
}

/** A reminder's own message id for Discord (another DM to the same person must not be taken for a repeat). */
const nonceOf = (applicationId: string, lead: number) => createHash("sha256").update(`${applicationId}:${lead}`).digest("hex").slice(0, 25);

/** Sends the reminders due now; how many DMs and posts were queued. */
export async function sendDueReminders(services: ReminderServices, now: Date): Promise<{ messages: number; posts: number }> {
  const sent = { messages: 0, posts: 0 };
  if (services.leads.length === 0 || (!services.directMessages && !services.announce)) return sent;
  for (const event of await listEventsToRemind(services.db, now, services.leads[0]!)) {
    const start = eventStart(event);
    const due = services.leads.filter((lead) => start.getTime() - lead * 60_000 <= now.getTime());
    if (due.length === 0) continue;
    const nearest = Math.min(...due);
    const page = `${services.siteOrigin}${href("/events/:id", { id: event.id })}`;
    // Sent on time, it says its own time ('in 1 hour'); sent late (the server was down), the time left.
    const late = now.getTime() - (start.getTime() - nearest * 60_000);
    const ahead = late <= 5 * 60_000 ? nearest * 60_000 : start.getTime() - now.getTime();
    if (!event.applicationRequired && services.announce) {
      for (const lead of due) {
        // An event made after this reminder's time was announced as it is: no reminder of it.
        const ours = lead === nearest && event.createdAt.getTime() <= start.getTime() - lead * 60_000;
        const posted = await services.db.transaction(async (tx) => {
          if (!(await claimReminder(tx, event.id, lead, "channel", ours)) || !ours) return false;
          await queueAnnouncement(tx, { content: m.announce_reminder({ event: escapeDiscordMarkdown(event.title), when: startsIn(ahead), link: page }) }, event.id, now);
          return true;
        });
        if (posted) sent.posts += 1;
      }
    }
    if (event.applicationRequired && services.directMessages) {
      // In the attendee's language. The title and the world's name are a host's and a world author's words: escaped for Discord.
      const messageIn = (language: string) =>
        inLanguage(language, () =>
          [
            m.dm_reminder({ event: escapeDiscordMarkdown(event.title), when: startsIn(ahead), date: formatLongDateTime(start, zoneOf(event.timezone)), world: escapeDiscordMarkdown(event.worldName) }),
            m.dm_event_page({ link: page }),
          ].join("\n"),
        );
      for (const attendee of await listApprovedWithDiscord(services.db, event.id)) {
        for (const lead of due) {
          const remindAt = start.getTime() - lead * 60_000;
          // Approved after this reminder's time: it is not theirs to get (the nearer ones are).
          const theirs = lead === nearest && attendee.reviewedAt !== null && attendee.reviewedAt.getTime() <= remindAt;
          const queued = await services.db.transaction(async (tx) => {
            if (!(await claimReminder(tx, event.id, lead, attendee.id, theirs)) || !theirs) return false;
            // Their own status page, one tap from 'Join in VRChat' or 'Withdraw': a fresh link (only its hash is kept).
            const language = personLanguage(attendee.language);
            const status = `${services.siteOrigin}${href("/applications/status/:token", { token: await mintStatusLink(tx, { kind: "event", id: attendee.id }) })}`;
            await queueDiscordActions(
              tx,
              { applicationKind: "event", applicationId: attendee.id, userId: attendee.discordUserId!, actor: { id: "dwell", name: "Dwell (reminder)" } },
              {
                grantRole: false,
                message: `${messageIn(language)}\n${inLanguage(language, () => m.dm_reminder_status({ link: status }))}`,
                nonce: nonceOf(attendee.id, lead),
                private: true,
              },
              now,
            );
            return true;
          });
          if (queued) sent.messages += 1;
        }
      }
    }
  }
  if (sent.messages + sent.posts > 0) services.wake();
  return sent;
}
