/**
 * The announcement form, read and checked on the server: every limit of the places it goes to is
 * checked here, before anything is saved or sent, with the limit named.
 */
import { ANNOUNCEMENT_AUDIENCES, ANNOUNCEMENT_PLACES, type AnnouncementAudience, type AnnouncementPlace } from "~/db/enums";
import { m } from "~/paraglide/messages";
import { formatCount } from "~/utils/language";
import { ANNOUNCEMENT_LIMITS, type AnnouncementChoice, type AnnouncementWords } from "./announcement-input";
import { checkPicture, PICTURE_MAX_BYTES } from "./announcement-picture.server";
import { toDiscordMarkdown } from "./announcement-text";
import type { PictureChange } from "./announcements.server";

/** What the form sent, as it was typed: given back to the form with the errors. */
export interface AnnouncementFormValues {
  texts: Record<string, AnnouncementWords>;
  audience: AnnouncementAudience;
  vrchatRoleIds: string[];
  notifyMembers: boolean;
  discordRoleId: string;
  places: AnnouncementPlace[];
  scheduleAt: string;
}

export type FieldErrors = Partial<Record<string, string>>;

export interface FormContext {
  languages: readonly string[];
  defaultLanguage: string;
  /** The places the server can send to. */
  configured: readonly AnnouncementPlace[];
  /** The VRChat roles the form offered (null: VRChat's roles could not be read; any id VRChat gave is kept). */
  vrchatRoles: readonly string[] | null;
  /** The owner's short list of Discord roles that may be mentioned. */
  mentionRoles: readonly string[];
  /** The staff member's local date and time ("2026-12-24T19:00") as an instant in their zone; null when it is not one. */
  toInstant: (local: string) => Date | null;
  now: Date;
  /** The announcement already has a picture (an edit). */
  hasPicture: boolean;
}

export type FormIntent = "publish" | "schedule" | "draft" | "save" | "preview";

const text = (form: FormData, name: string) => {
  const value = form.get(name);
  return typeof value === "string" ? value : "";
};

export function readValues(form: FormData, context: Pick<FormContext, "languages">): AnnouncementFormValues {
  const audience = text(form, "audience");
  return {
    texts: Object.fromEntries(context.languages.map((language) => [language, { title: text(form, `title.${language}`), text: text(form, `text.${language}`) }])),
    audience: (ANNOUNCEMENT_AUDIENCES as readonly string[]).includes(audience) ? (audience as AnnouncementAudience) : "everyone",
    vrchatRoleIds: form.getAll("vrchatRole").filter((value): value is string => typeof value === "string" && value.length > 0 && value.length <= 200),
    notifyMembers: form.get("notifyMembers") === "on",
    discordRoleId: text(form, "discordRole"),
    places: ANNOUNCEMENT_PLACES.filter((place) => form.getAll("place").includes(place)),
    scheduleAt: text(form, "scheduleAt"),
  };
}

/**
 * The form's choice, checked; or what to change, field by field. `intent` says when it goes: now,
 * at the time given, or not yet (a draft); an edit ('save') keeps the time it has unless one is given.
 */
export async function readAnnouncementForm(
  form: FormData,
  intent: FormIntent,
  context: FormContext,
  current: { publishAt: Date | null } | null,
): Promise<{ values: AnnouncementFormValues; errors: FieldErrors; choice: AnnouncementChoice | null; picture: PictureChange }> {
  const values = readValues(form, context);
  const errors: FieldErrors = {};
  const { defaultLanguage } = context;

  for (const language of context.languages) {
    const words = values.texts[language]!;
    const title = words.title.trim();
    const body = words.text.trim();
    const isDefault = language === defaultLanguage;
    if (isDefault && !title) errors[`title.${language}`] = m.ann_title_required();
    if (isDefault && !body) errors[`text.${language}`] = m.ann_text_required();
    if (!isDefault && (title || body) && !(title && body)) errors[title ? `text.${language}` : `title.${language}`] = m.ann_both_or_neither();
    if (title.length > ANNOUNCEMENT_LIMITS.title) errors[`title.${language}`] = m.ann_title_too_long({ limit: formatCount(ANNOUNCEMENT_LIMITS.title), count: formatCount(title.length) });
    if (body.length > ANNOUNCEMENT_LIMITS.text) errors[`text.${language}`] = m.ann_text_too_long({ limit: formatCount(ANNOUNCEMENT_LIMITS.text), count: formatCount(body.length) });
    // Discord gets the default language's words, as Markdown (escapes included).
    else if (isDefault && values.places.includes("discord")) {
      const length = toDiscordMarkdown(body).length;
      if (length > ANNOUNCEMENT_LIMITS.discordText) errors[`text.${language}`] = m.ann_text_too_long_discord({ limit: formatCount(ANNOUNCEMENT_LIMITS.discordText), count: formatCount(length) });
    }
  }

  const unconfigured = values.places.filter((place) => !context.configured.includes(place));
  if (unconfigured.length > 0) errors.place = m.ann_place_not_set_up();
  if (values.places.length === 0) errors.place = m.ann_place_required();
  if (context.vrchatRoles && values.vrchatRoleIds.some((id) => !context.vrchatRoles!.includes(id))) errors.vrchatRole = m.ann_role_unknown();
  if (values.vrchatRoleIds.length > 0 && values.audience === "everyone") errors.audience = m.ann_roles_members_only();
  const discordRoleId = values.discordRoleId || null;
  if (discordRoleId && !context.mentionRoles.includes(discordRoleId)) errors.discordRole = m.ann_mention_not_allowed();

  let publishAt: Date | null = current?.publishAt ?? null;
  if (intent === "publish") publishAt = context.now;
  if (intent === "draft") publishAt = null;
  if (intent === "schedule" || (intent === "save" && values.scheduleAt && !(current?.publishAt && current.publishAt <= context.now))) {
    const at = values.scheduleAt ? context.toInstant(values.scheduleAt) : null;
    if (!at) errors.scheduleAt = m.ann_schedule_required();
    else if (at.getTime() < context.now.getTime() - 60_000) errors.scheduleAt = m.ann_schedule_past();
    else publishAt = at;
  }

  let picture: PictureChange = form.get("removePicture") === "on" && context.hasPicture ? { kind: "remove" } : { kind: "keep" };
  const file = form.get("picture");
  if (file instanceof File && file.size > 0) {
    if (file.size > PICTURE_MAX_BYTES) errors.picture = m.ann_picture_too_large({ size: formatCount(Math.ceil(file.size / 1024 / 1024)) });
    else {
      const bytes = Buffer.from(await file.arrayBuffer());
      const check = await checkPicture(bytes);
      if (check.ok) picture = { kind: "new", bytes, check };
      else errors.picture = check.problem === "wrong-type" ? m.ann_picture_wrong_type() : check.problem === "too-large" ? m.ann_picture_too_large({ size: "5" }) : m.ann_picture_unreadable();
    }
  }

  if (Object.keys(errors).length > 0) return { values, errors, choice: null, picture };
  return {
    values,
    errors,
    picture,
    choice: {
      texts: values.texts,
      audience: values.audience,
      vrchatRoleIds: values.vrchatRoleIds,
      notifyMembers: values.notifyMembers,
      discordRoleId,
      places: values.places,
      publishAt,
      eventId: null,
    },
  };
}
