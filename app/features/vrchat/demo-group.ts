/**
 * An example group, shown while the site has no VRChat connection, so a newcomer sees every
 * screen of the statistics: live instances, recent and older events and posts, representing
 * members, members with and without pictures. Times are relative to `now`; images are local.
 */
import type { GroupData, Member } from "./group-data";

const HOUR = 60 * 60 * 1000;
const DAY = 24 * HOUR;

const MEMBER_NAMES = [
  "Vesper Lumen", "Ashgrove", "Mothlight", "Quill", "Nyx Aurelia", "Thistledown", "Orrery", "Sable Wren",
  "Cinderfox", "Halcyon", "Wisp", "Marrow Bell", "Juniper Vale", "Echo Tide", "Rook", "Starwell",
];

function demoMembers(): Member[] {
  return MEMBER_NAMES.map((name, index) => {
    const picture = index % 3 === 0 ? `/demo/avatar-${(index % 4) + 1}.svg` : null;
    return {
      id: `usr_demo-${String(index + 1).padStart(2, "0")}`,
      displayName: name,
      username: null,
      isRepresenting: index < 3,
      currentAvatarThumbnailImageUrl: index % 3 === 0 ? picture : null,
      // Some members only have an icon: the dashboard falls back to it.
      iconUrl: index % 3 === 1 && index % 2 === 1 ? `/demo/avatar-${(index % 4) + 1}.svg` : null,
      profilePicOverride: null,
    };
  });
}

export function demoGroupData(now: Date): GroupData {
  // Whole hours, so the example stays the same between two refreshes.
  const hour = Math.floor(now.getTime() / HOUR) * HOUR;
  const at = (offsetMs: number) => new Date(hour + offsetMs).toISOString();
  return {
    group: { name: "The Dwellers", memberCount: 1287, onlineMemberCount: 64 },
    instances: [
      {
        id: "demo-threshold",
        userCount: 12,
        name: "10231",
        region: "us",
        type: "group",
        capacity: 32,
        world: { name: "The Threshold", authorName: "Vesper Lumen", capacity: 32, recommendedCapacity: 16 },
      },
      {
        id: "demo-grove",
        userCount: 7,
        name: "48812",
        region: "eu",
        type: "public",
        capacity: 20,
        world: { name: "Moonlit Grove", authorName: "Thistledown", capacity: 20, recommendedCapacity: 10 },
      },
    ],
    events: [
      {
        id: "cal_demo-live",
        title: "Lantern Walk",
        description: "A slow walk through the Moonlit Grove with lanterns and quiet music.",
        imageUrl: "/demo/event-1.svg",
        startsAt: at(-1 * HOUR),
        endsAt: at(1 * HOUR),
        location: null,
        attendeeCount: 23,
      },
      {
        id: "cal_demo-soon",
        title: "Threshold Storytelling Night",
        description: "Bring a story, true or otherwise. Newcomers welcome.",
        imageUrl: "/demo/event-2.svg",
        startsAt: at(2 * DAY + 20 * HOUR),
        endsAt: at(2 * DAY + 22 * HOUR),
        location: null,
        attendeeCount: 1,
      },
      {
        id: "cal_demo-later",
        title: "Cartographers' Gathering",
        description: "We map new worlds together and vote on next month's destinations.",
        imageUrl: null,
        startsAt: at(9 * DAY + 19 * HOUR),
        endsAt: at(9 * DAY + 21 * HOUR),
        location: null,
        attendeeCount: 41,
      },
      {
        id: "cal_demo-recent",
        title: "Ember Circle",
        description: "Songs around the great fire.",
        imageUrl: "/demo/event-3.svg",
        startsAt: at(-6 * DAY),
        endsAt: at(-6 * DAY + 2 * HOUR),
        location: null,
        attendeeCount: 17,
      },
      {
        id: "cal_demo-old-1",
        title: "Autumn Masquerade",
        description: "Masks required, names optional.",
        imageUrl: "/demo/event-2.svg",
        startsAt: at(-45 * DAY),
        endsAt: at(-45 * DAY + 3 * HOUR),
        location: null,
        attendeeCount: 58,
      },
      {
        id: "cal_demo-old-2",
        title: "Harvest Moon Social",
        description: "Our first gathering of the season.",
        imageUrl: null,
        startsAt: at(-70 * DAY),
        endsAt: at(-70 * DAY + 2 * HOUR),
        location: null,
        attendeeCount: 0,
      },
    ],
    posts: [
      {
        id: "post_demo-1",
        title: "Welcome to our new Dwellers",
        text: "Forty new faces joined us this week. Say hello in the Threshold!",
        imageUrl: "/demo/post-1.svg",
        createdAt: at(-2 * DAY),
      },
      {
        id: "post_demo-2",
        title: "Event hosts wanted",
        text: "Have an idea for a gathering? Tell an admin and we will help you host it.",
        imageUrl: null,
        createdAt: at(-12 * DAY),
      },
      {
        id: "post_demo-3",
        title: "The Grove reopens",
        text: "Moonlit Grove has been rebuilt with more room for dancing.",
        imageUrl: "/demo/post-2.svg",
        createdAt: at(-50 * DAY),
      },
    ],
    members: demoMembers(),
  };
}
