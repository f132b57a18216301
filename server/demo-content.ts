/**
 * A small, believable set of events and questions for a new embedded database, so a newcomer
 * sees every page working. Dates are relative to the day it is seeded.
 */
import { applicationDeadlineFor, localDayKey, zoneOf } from "~/features/events/event-timing";
import type { Database } from "~/db/db.server";
import { announcementPlaces, announcements, applicationQuestions, eventApplicationQuestions, events, siteMilestones } from "~/db/schema";

const DAY = 24 * 60 * 60 * 1000;

function dayIn(now: Date, days: number, timezone: string) {
  return localDayKey(new Date(now.getTime() + days * DAY), zoneOf(timezone));
}

type Transaction = Parameters<Parameters<Database["transaction"]>[0]>[0];

export async function seedDemoContent(db: Database, now: Date) {
  await db.transaction((tx) => insertDemoContent(tx, now));
}

/**
 * Records the database's first server start, once, whichever process gets there first; with
 * `demoContent`, the demo events and questions are seeded in the same transaction. A database made
 * earlier by an account command (`npm run user:create` before `npm start`) has not started yet, so
 * it gets them too. Whether this start seeded them.
 */
export async function recordFirstStart(db: Database, { demoContent, now }: { demoContent: boolean; now: Date }) {
  return db.transaction(async (tx) => {
    const recorded = await tx
      .insert(siteMilestones)
      .values({ name: "first-start", reachedAt: now, detail: { demoContent } })
      .onConflictDoNothing()
      .returning({ name: siteMilestones.name });
    if (recorded.length === 0 || !demoContent) return false;
    await insertDemoContent(tx, now);
    return true;
  });
}

async function insertDemoContent(tx: Transaction, now: Date) {
  const threshold = dayIn(now, 5, "EST");
  const [gathering, , circle] = await tx
    .insert(events)
    .values([
      {
        title: "The Gathering at the Threshold",
        description:
          "Our monthly moonrise gathering. Bring a story, a song, or simply yourself: we open the doors of the Threshold and welcome new Dwellers into the circle.",
        eventDate: threshold,
        eventTime: "20:00",
        timezone: "EST",
        worldName: "The Black Cat",
        applicationRequired: true,
        applicationDeadline: applicationDeadlineFor(dayIn(now, 4, "EST"), "EST"),
        maxAttendees: 40,
        applicationInstructions:
          "Tell us a little about yourself. Applications are read by the hosts within a day; you will hear back on Discord.",
        featured: true,
      },
      {
        title: "Starlight Open Mic",
        description:
          "Poems, songs, strange little monologues. Sign up on the night or just listen under the stars.",
        eventDate: dayIn(now, 9, "PST"),
        eventTime: "19:00",
        timezone: "PST",
        worldName: "Midnight Rooftop",
      },
      {
        title: "Moonlit Meditation Circle",
        description:
          "A quiet hour of guided breathing and ambient music by the lake. Small circle, so we ask you to apply.",
        eventDate: dayIn(now, 16, "UTC"),
        eventTime: "21:00",
        timezone: "UTC",
        worldName: "Lakeside Sanctuary",
        applicationRequired: true,
        maxAttendees: 12,
        applicationInstructions: "Mute-friendly: you may take part without speaking.",
      },
      {
        title: "Winter Solstice Ball",
        description:
          "Our grand ball of the longest night. The guest list is complete; the doors open for everyone's next ball.",
        eventDate: dayIn(now, 3, "PST"),
        eventTime: "18:30",
        timezone: "PST",
        worldName: "Crystal Palace",
        applicationRequired: true,
        applicationDeadline: applicationDeadlineFor(dayIn(now, -2, "PST"), "PST"),
        maxAttendees: 60,
      },
      {
        title: "Cosmic Dance Night",
        description: "Lights low, bass high. Our resident DJs take you through the nebula until late.",
        eventDate: dayIn(now, 23, "CST"),
        eventTime: "22:00",
        timezone: "CST",
        worldName: "Nebula Club",
      },
      {
        title: "Equinox Masquerade",
        description: "Masks, mystery and a midnight unmasking. Thank you to everyone who came.",
        eventDate: dayIn(now, -12, "MST"),
        eventTime: "20:30",
        timezone: "MST",
        worldName: "Hall of Mirrors",
        applicationRequired: true,
        applicationDeadline: applicationDeadlineFor(dayIn(now, -14, "MST"), "MST"),
        maxAttendees: 30,
      },
      {
        title: "First Light Social",
        description: "Where it began: coffee, introductions and a sunrise over the valley.",
        eventDate: dayIn(now, -30, "UTC"),
        eventTime: "09:00",
        timezone: "UTC",
        worldName: "Dawn Valley",
      },
    ])
    .returning({ id: events.id });

  const eventQuestions = (eventId: string) => [
    { eventId, question: "What is your VRChat username?", questionType: "vrchat_username", orderIndex: 0 },
    { eventId, question: "What is your Discord username?", questionType: "discord_handle", orderIndex: 1 },
    {
      eventId,
      question: "Why do you wish to attend?",
      questionType: "textarea",
      orderIndex: 2,
    },
    {
      eventId,
      question: "Which part calls to you?",
      questionType: "select",
      options: ["Listener", "Performer", "Helper"],
      required: false,
      orderIndex: 3,
    },
  ];
  await tx
    .insert(eventApplicationQuestions)
    .values([...eventQuestions(gathering!.id), ...eventQuestions(circle!.id)]);

  await tx.insert(applicationQuestions).values([
    { question: "What is your VRChat username?", questionType: "vrchat_username", orderIndex: 0 },
    { question: "What is your Discord username?", questionType: "discord_handle", orderIndex: 1 },
    {
      question: "How did you find the Dwellers?",
      questionType: "select",
      options: ["A friend", "An event", "Discord", "Somewhere else"],
      orderIndex: 2,
    },
    { question: "Tell us about yourself", questionType: "textarea", orderIndex: 3 },
    {
      question: "Anything else we should know?",
      questionType: "textarea",
      required: false,
      orderIndex: 4,
    },
  ]);

  // Two announcements on the site's news (the latest shows on the home page).
  const news = await tx
    .insert(announcements)
    .values([
      {
        texts: {
          en: {
            title: "The Threshold opens its doors again",
            text: "After a quiet month, the **Gathering at the Threshold** is back: stories, songs and a warm welcome for new Dwellers.\n\nApplications are open on the event's page. *Bring a friend.*",
          },
        },
        publishAt: new Date(now.getTime() - 2 * DAY),
      },
      {
        texts: {
          en: {
            title: "A new home for our screenshots",
            text: "Share your favourite moments from our nights in the Discord's gallery channel. The best of each month will hang in the Threshold's hall.",
          },
        },
        publishAt: new Date(now.getTime() - 9 * DAY),
      },
    ])
    .returning({ id: announcements.id });
  await tx.insert(announcementPlaces).values(news.map(({ id }) => ({ announcementId: id, place: "site" as const, state: "published" as const })));
}
