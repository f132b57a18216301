/**
 * What the Sanctum's announcement pages share: the form's options (the site's languages, the places
 * set up, the group's VRChat roles, the Discord roles that may be mentioned, the staff member's
 * zone), reading the form, and its preview.
 */
import { data, type RouterContextProvider } from "react-router";
import { appContext, type AppContext } from "~/context";
import type { AnnouncementRow, EventRow } from "~/db/schema";
import { checkPicture } from "~/features/announcements/announcement-picture.server";
import type { PictureChange } from "~/features/announcements/announcements.server";
import { eventCardImage } from "~/features/events/event-card-image.server";
import { getEvent } from "~/features/events/events.server";
import { m } from "~/paraglide/messages";
import { requireOnEvent } from "~/utils/admin-guard.server";
import { requireStaff } from "~/routes/staff-guard.server";
import type { EditorOptions, EditorValues } from "~/features/announcements/announcement-editor";
import { readAnnouncementForm, type FormIntent } from "~/features/announcements/announcement-form.server";
import { previewOf } from "~/features/announcements/announcement-preview.server";
import { getMentionRoleIds } from "~/features/announcements/announcements.server";
import { DEFAULT_TIME_ZONE, readTimeZoneCookie } from "~/utils/viewer-time-zone";
import { validTimeZone, wallClock, wallTimeToInstant } from "~/features/events/event-timing";
import { newsPageUrl } from "~/flows/announcement-places.server";
import { configuredPlaces } from "~/flows/announcements.server";
import { log } from "~/utils/log.server";

export const FORM_INTENTS = ["publish", "schedule", "draft", "save", "preview"] as const;
export const isFormIntent = (value: unknown): value is FormIntent => (FORM_INTENTS as readonly unknown[]).includes(value);

export function viewerZone(request: Request): string {
  return validTimeZone(readTimeZoneCookie(request.headers.get("Cookie"))) ?? DEFAULT_TIME_ZONE;
}

export function placesOf(app: AppContext) {
  return configuredPlaces({ posts: app.vrchat.posts, discord: app.discord, discordChannelId: app.config.DISCORD_ANNOUNCE_CHANNEL_ID ?? null });
}

/** The Discord roles the owner allows (with their names when Discord tells them). */
export async function mentionRoles(app: AppContext): Promise<{ id: string; name: string }[]> {
  const ids = await getMentionRoleIds(app.db);
  if (ids.length === 0 || !app.discord) return [];
  const known = await app.discord.guildRoles().catch((error: unknown) => {
    log.warn("the Discord server's roles could not be read", { error });
    return null;
  });
  return ids.map((id) => ({ id, name: known?.find((role) => role.id === id)?.name ?? id }));
}

/**
 * Who may write (or change) an announcement: owners and admins any; a host, one that announces an
 * event they host. Throws the guard's answer otherwise.
 */
export async function requireAnnouncer(request: Request, context: Readonly<RouterContextProvider>, eventId: string | null) {
  if (!eventId) return { viewer: await requireStaff(request, context, "announcements"), event: null };
  const viewer = await requireStaff(request, context);
  const event = /^[0-9a-f-]{36}$/.test(eventId) ? await getEvent(context.get(appContext).db, eventId) : null;
  if (!event) throw data({ message: m.event_not_found_admin() }, { status: 404 });
  requireOnEvent(viewer, "announce", event);
  return { viewer, event };
}

/** The event's own picture (its card, as a link to its page shows it), for an announcement of it. */
export async function eventPicture(app: AppContext, event: EventRow): Promise<PictureChange> {
  const { image } = await eventCardImage(event, new URL(app.config.VRCHAT_API_URL).origin);
  const check = await checkPicture(image);
  return check.ok ? { kind: "new", bytes: image, check } : { kind: "keep" };
}

export async function editorOptions(app: AppContext, request: Request, extra: Pick<EditorOptions, "published" | "picture" | "mode" | "event">): Promise<EditorOptions> {
  const configured = placesOf(app);
  const [vrchatRoles, mentions] = await Promise.all([
    app.vrchat.listRoles
      ? app.vrchat.listRoles().catch((error: unknown) => {
          log.warn("the group's VRChat roles could not be read", { error });
          return null;
        })
      : Promise.resolve([]),
    mentionRoles(app),
  ]);
  return {
    languages: app.config.SITE_LANGUAGES,
    defaultLanguage: app.config.SITE_LANGUAGES[0]!,
    configured,
    vrchatRoles,
    mentionRoles: mentions,
    timeZone: viewerZone(request),
    ...extra,
  };
}

/** A local "2026-12-24T19:00" in the staff member's zone. */
export function localInput(instant: Date | null, zone: string): string {
  if (!instant) return "";
  const clock = wallClock(instant.getTime(), zone);
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${clock.year}-${pad(clock.month)}-${pad(clock.day)}T${pad(clock.hour)}:${pad(clock.minute)}`;
}

export function toInstantIn(zone: string) {
  return (local: string): Date | null => {
    const match = /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2})$/.exec(local);
    if (!match) return null;
    try {
      return wallTimeToInstant(match[1]!, match[2]!, zone);
    } catch {
      return null;
    }
  };
}

export function valuesOf(row: AnnouncementRow, zone: string): EditorValues {
  return {
    texts: row.texts,
    audience: row.audience,
    vrchatRoleIds: row.vrchatRoleIds,
    notifyMembers: row.notifyMembers,
    discordRoleId: row.discordRoleId ?? "",
    places: [],
    scheduleAt: localInput(row.publishAt && row.publishAt > new Date() ? row.publishAt : null, zone),
  };
}

export const NEW_VALUES = (places: EditorValues["places"]): EditorValues => ({
  texts: {},
  audience: "everyone",
  vrchatRoleIds: [],
  notifyMembers: false,
  discordRoleId: "",
  places,
  scheduleAt: "",
});

/** Reads the posted form against the options; the preview when asked for. */
export async function readForm(app: AppContext, request: Request, form: FormData, intent: FormIntent, options: EditorOptions, current: { id: string | null; publishAt: Date | null; hasPicture: boolean }) {
  const read = await readAnnouncementForm(
    form,
    intent,
    {
      languages: options.languages,
      defaultLanguage: options.defaultLanguage,
      configured: options.configured,
      vrchatRoles: options.vrchatRoles?.map((role) => role.id) ?? null,
      mentionRoles: options.mentionRoles.map((role) => role.id),
      toInstant: toInstantIn(options.timeZone),
      now: new Date(),
      hasPicture: current.hasPicture,
    },
    current.id ? { publishAt: current.publishAt } : null,
  );
  const preview =
    intent === "preview" && read.choice
      ? previewOf(read.choice, {
          language: app.language,
          defaultLanguage: options.defaultLanguage,
          pageUrl: newsPageUrl(app.config.PUBLIC_URL)(current.id ?? "…"),
          vrchatRoleNames: Object.fromEntries((options.vrchatRoles ?? []).map((role) => [role.id, role.name])),
          mentionName: options.mentionRoles.find((role) => role.id === read.choice!.discordRoleId)?.name ?? null,
          picture: read.picture.kind === "new" || (read.picture.kind === "keep" && current.hasPicture),
        })
      : null;
  return { ...read, preview };
}
