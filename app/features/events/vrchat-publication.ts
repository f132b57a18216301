/**
 * 'Publish to VRChat' on the event form: the choices VRChat's calendar asks for (category, who may
 * see it, up to three languages, platforms) and the limits VRChat sets, checked before any call.
 * Facts from the community's OpenAPI description of the VRChat API (createGroupCalendarEvent).
 */
import { z } from "zod";
import type { PublicationState } from "~/db/schema";

/** VRChat's calendar refuses a longer title (`CreateCalendarEventRequest.title.maxLength`). */
export const VRCHAT_TITLE_MAX = 64;
export { VRCHAT_CREATIONS_PER_HOUR } from "~/utils/vrchat-limits";
export const VRCHAT_LANGUAGES_MAX = 3;

export const VRCHAT_CATEGORIES = {
  hangout: "Hangout",
  arts: "Arts",
  avatars: "Avatars",
  dance: "Dance",
  education: "Education",
  exploration: "Exploration",
  film_media: "Film & Media",
  gaming: "Gaming",
  music: "Music",
  performance: "Performance",
  roleplaying: "Roleplaying",
  wellness: "Wellness",
  other: "Other",
} as const;
export type VRChatCategory = keyof typeof VRCHAT_CATEGORIES;

export const VRCHAT_ACCESS = {
  public: "Public: anyone on VRChat can see it",
  group: "Members only: the group's members see it",
} as const;
export type VRChatAccess = keyof typeof VRCHAT_ACCESS;

/** VRChat's platform names, as the calendar takes them. */
export const VRCHAT_PLATFORMS = {
  standalonewindows: "PC",
  android: "Android (Quest)",
  ios: "iOS",
} as const;

/**
 * Spoken and signed languages VRChat offers (its codes, ISO 639-3), the ones most groups use; the
 * full list lives in VRChat's `/config` and changes there.
 */
export const VRCHAT_LANGUAGES = {
  eng: "English",
  deu: "German",
  fra: "French",
  spa: "Spanish",
  por: "Portuguese",
  ita: "Italian",
  nld: "Dutch",
  pol: "Polish",
  swe: "Swedish",
  nor: "Norwegian",
  dan: "Danish",
  fin: "Finnish",
  ces: "Czech",
  hun: "Hungarian",
  ron: "Romanian",
  tur: "Turkish",
  rus: "Russian",
  ukr: "Ukrainian",
  ara: "Arabic",
  hin: "Hindi",
  tha: "Thai",
  vie: "Vietnamese",
  ind: "Indonesian",
  jpn: "Japanese",
  kor: "Korean",
  zho: "Chinese",
  ase: "American Sign Language",
  bfi: "British Sign Language",
  dse: "Dutch Sign Language",
  fsl: "French Sign Language",
  jsl: "Japanese Sign Language",
} as const;

/** What the admin chose for the VRChat calendar. */
export interface PublicationChoice {
  category: VRChatCategory;
  accessType: VRChatAccess;
  languages: string[];
  platforms: string[];
  notify: boolean;
}

export const DEFAULT_PUBLICATION_CHOICE: PublicationChoice = {
  category: "hangout",
  accessType: "public",
  languages: ["eng"],
  platforms: ["standalonewindows", "android"],
  notify: false,
};

const keysOf = <T extends object>(record: T) => Object.keys(record) as [keyof T & string, ...(keyof T & string)[]];

const PublicationChoiceSchema = z.object({
  category: z.enum(keysOf(VRCHAT_CATEGORIES), { error: "Choose a VRChat category" }),
  accessType: z.enum(keysOf(VRCHAT_ACCESS), { error: "Choose who may see the event on VRChat" }),
  languages: z
    .array(z.enum(keysOf(VRCHAT_LANGUAGES), { error: "Choose languages from the list" }))
    .max(VRCHAT_LANGUAGES_MAX, { error: `VRChat takes at most ${VRCHAT_LANGUAGES_MAX} languages` }),
  platforms: z
    .array(z.enum(keysOf(VRCHAT_PLATFORMS), { error: "Choose platforms from the list" }))
    .min(1, { error: "Choose at least one platform for VRChat" }),
  notify: z.boolean(),
});

/** The form's field names for each choice. */
const FIELD = {
  publish: "publishToVRChat",
  category: "vrchatCategory",
  accessType: "vrchatAccess",
  languages: "vrchatLanguage",
  platforms: "vrchatPlatform",
  notify: "vrchatNotify",
} as const;
export const PUBLICATION_FIELDS = FIELD;

export type PublicationInput =
  | { ok: true; choice: PublicationChoice | null }
  | { ok: false; field: string; error: string };

/** Reads 'Publish to VRChat' from the event form: null when it is not ticked. */
export function parsePublicationInput(form: FormData): PublicationInput {
  const on = (name: string) => ["on", "true"].includes(String(form.get(name) ?? ""));
  if (!on(FIELD.publish)) return { ok: true, choice: null };
  const strings = (name: string) =>
    form
      .getAll(name)
      .map(String)
      .filter((value) => value !== "");
  const parsed = PublicationChoiceSchema.safeParse({
    category: form.get(FIELD.category) ?? undefined,
    accessType: form.get(FIELD.accessType) ?? undefined,
    languages: [...new Set(strings(FIELD.languages))],
    platforms: [...new Set(strings(FIELD.platforms))],
    notify: on(FIELD.notify),
  });
  if (parsed.success) return { ok: true, choice: parsed.data };
  const issue = parsed.error.issues[0]!;
  const key = String(issue.path[0] ?? "category") as keyof typeof FIELD;
  return { ok: false, field: FIELD[key] ?? FIELD.category, error: issue.message };
}

export function titleTooLongForVRChat(title: string): string | null {
  const length = [...title].length;
  if (length <= VRCHAT_TITLE_MAX) return null;
  return `VRChat's calendar takes titles of at most ${VRCHAT_TITLE_MAX} characters; this one has ${length}. Shorten it, or save without publishing to VRChat.`;
}

/** How an event stands on VRChat's calendar, for its card in the Sanctum. */
export interface PublicationSummary {
  /** Published, being published or updated, or being removed (the admins no longer want it there). */
  wanted: boolean;
  state: PublicationState;
  /** VRChat's calendar entry, once created. */
  vrchatEventId: string | null;
  accessType: VRChatAccess;
  lastError: string | null;
  choice: PublicationChoice;
  /** An earlier entry still on VRChat's calendar (a new one, for another audience, not there yet): who may see it. */
  keptAccessType: VRChatAccess | null;
}

/** A publication as the Sanctum lists it: with its entry's page on VRChat, once it has one. */
export type ListedPublication = PublicationSummary & { entryUrl: string | null };
