/**
 * 'Publish to VRChat' on the event form: the choices VRChat's calendar asks for (category, who may
 * see it, up to three languages, platforms) and the limits VRChat sets, checked before any call.
 * Facts from the community's OpenAPI description of the VRChat API (createGroupCalendarEvent).
 */
import { z } from "zod";
import type { PublicationState } from "~/db/schema";
import { m } from "~/paraglide/messages";
import { intlLocale } from "~/utils/language";

/** VRChat's calendar refuses a longer title (`CreateCalendarEventRequest.title.maxLength`). */
export const VRCHAT_TITLE_MAX = 64;
export { VRCHAT_CREATIONS_PER_HOUR } from "~/utils/vrchat-limits";
export const VRCHAT_LANGUAGES_MAX = 3;

export const VRCHAT_CATEGORIES = {
  get hangout() {
    return m.aev_cat_hangout();
  },
  get arts() {
    return m.aev_cat_arts();
  },
  get avatars() {
    return m.aev_cat_avatars();
  },
  get dance() {
    return m.aev_cat_dance();
  },
  get education() {
    return m.aev_cat_education();
  },
  get exploration() {
    return m.aev_cat_exploration();
  },
  get film_media() {
    return m.aev_cat_film_media();
  },
  get gaming() {
    return m.aev_cat_gaming();
  },
  get music() {
    return m.aev_cat_music();
  },
  get performance() {
    return m.aev_cat_performance();
  },
  get roleplaying() {
    return m.aev_cat_roleplaying();
  },
  get wellness() {
    return m.aev_cat_wellness();
  },
  get other() {
    return m.aev_cat_other();
  },
};
export type VRChatCategory = keyof typeof VRCHAT_CATEGORIES;

export const VRCHAT_ACCESS = {
  get public() {
    return m.aev_access_public_choice();
  },
  get group() {
    return m.aev_access_group_choice();
  },
};
export type VRChatAccess = keyof typeof VRCHAT_ACCESS;

/** VRChat's platform names, as the calendar takes them. */
export const VRCHAT_PLATFORMS = {
  standalonewindows: "PC",
  get android() {
    return m.aev_platform_android();
  },
  ios: "iOS",
};

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

/** Sign languages the runtime's language names lack, named from the catalogue. */
const SIGN_LANGUAGES: Record<string, () => string> = { bfi: m.aev_lang_bfi, dse: m.aev_lang_dse, fsl: m.aev_lang_fsl, jsl: m.aev_lang_jsl };

const LANGUAGE_NAMES = new Map<string, Intl.DisplayNames>();

/** A VRChat language's name in the reader's language ('日本語', 'German'). */
export function vrchatLanguageName(code: keyof typeof VRCHAT_LANGUAGES): string {
  const named = SIGN_LANGUAGES[code]?.();
  if (named) return named;
  const locale = intlLocale();
  let names = LANGUAGE_NAMES.get(locale);
  if (!names) LANGUAGE_NAMES.set(locale, (names = new Intl.DisplayNames([locale], { type: "language", fallback: "none" })));
  const name = names.of(code);
  return name ?? VRCHAT_LANGUAGES[code];
}

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
  category: z.enum(keysOf(VRCHAT_CATEGORIES), { error: () => m.aev_choose_category() }),
  accessType: z.enum(keysOf(VRCHAT_ACCESS), { error: () => m.aev_choose_visibility() }),
  languages: z
    .array(z.enum(keysOf(VRCHAT_LANGUAGES), { error: () => m.aev_choose_languages() }))
    .max(VRCHAT_LANGUAGES_MAX, { error: () => m.aev_languages_max({ max: VRCHAT_LANGUAGES_MAX }) }),
  platforms: z
    .array(z.enum(keysOf(VRCHAT_PLATFORMS), { error: () => m.aev_choose_platforms() }))
    .min(1, { error: () => m.aev_platform_needed() }),
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
  return m.aev_vrchat_title_long({ max: VRCHAT_TITLE_MAX, length });
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
