/**
 * The Sanctum's announcement form: the words in each of the site's languages, a picture, who may
 * read it, the VRChat roles it is for, 'Notify members in VRChat', the Discord role it mentions,
 * where it goes, and when. It posts as a plain form (it works before the page's scripts load), and
 * the server checks everything again.
 */
import { Form, useNavigation } from "react-router";
import { Button } from "~/components/ui/button";
import { Card } from "~/components/ui/card";
import { fieldClass } from "~/components/ui/field";
import type { AnnouncementPlace } from "~/db/enums";
import { m } from "~/paraglide/messages";
import { LANGUAGE_NAMES } from "~/utils/language";
import { ANNOUNCEMENT_LIMITS } from "./announcement-input";

export interface EditorValues {
  texts: Record<string, { title: string; text: string }>;
  audience: "everyone" | "members";
  vrchatRoleIds: string[];
  notifyMembers: boolean;
  discordRoleId: string;
  places: AnnouncementPlace[];
  scheduleAt: string;
}

export interface EditorOptions {
  languages: readonly string[];
  defaultLanguage: string;
  configured: readonly AnnouncementPlace[];
  /** The group's VRChat roles (null: they could not be read now). */
  vrchatRoles: { id: string; name: string }[] | null;
  /** The Discord roles the owner allows announcements to mention. */
  mentionRoles: { id: string; name: string }[];
  /** The staff member's time zone, for 'Schedule'. */
  timeZone: string;
  /** The form edits an announcement that is already out: its time is kept. */
  published: boolean;
  /** Whether it has a picture now (an edit). */
  picture: { url: string; width: number; height: number } | null;
  /** A new announcement (publish, schedule, draft) or an edit (save). */
  mode: "new" | "edit";
  /** The event it announces ('Announce' on an event's card). */
  event: { id: string; title: string } | null;
}

export const placeName = (place: AnnouncementPlace) => (place === "site" ? m.ann_place_site() : place === "vrchat" ? m.ann_place_vrchat() : m.ann_place_discord());

function FieldError({ id, error }: { id: string; error?: string }) {
  return error ? (
    <p id={id} className="mt-1 text-sm text-red-300">
      {error}
    </p>
  ) : null;
}

export function AnnouncementEditor({ values, options, errors }: { values: EditorValues; options: EditorOptions; errors: Partial<Record<string, string>> }) {
  const navigation = useNavigation();
  const busy = navigation.state !== "idle";
  const label = "block text-sm font-medium text-mist-100";
  const invalid = (name: string) => (errors[name] ? { "aria-invalid": true, "aria-describedby": `${name}-error` } : {});
  return (
    <Form method="post" encType="multipart/form-data" className="space-y-6" noValidate>
      {options.event ? (
        <p className="rounded-xl border border-aurora-400/30 bg-aurora-500/10 px-4 py-3 text-sm text-mist-100">
          <input type="hidden" name="event" value={options.event.id} />
          {m.ann_for_event({ title: options.event.title })}
        </p>
      ) : null}
      {options.languages.map((language) => {
        const words = values.texts[language] ?? { title: "", text: "" };
        const isDefault = language === options.defaultLanguage;
        return (
          <Card key={language} className="space-y-4 p-5">
            <h2 className="font-display text-xl text-mist-100">
              {LANGUAGE_NAMES[language] ?? language}
              {isDefault ? <span className="ml-2 text-sm text-mist-400">{m.ann_default_language()}</span> : <span className="ml-2 text-sm text-mist-400">{m.ann_optional_language()}</span>}
            </h2>
            <div>
              <label htmlFor={`title.${language}`} className={label}>
                {m.ann_title_label()}
              </label>
              <input id={`title.${language}`} name={`title.${language}`} defaultValue={words.title} maxLength={ANNOUNCEMENT_LIMITS.title} className={`${fieldClass} mt-1`} lang={language} {...invalid(`title.${language}`)} />
              <FieldError id={`title.${language}-error`} error={errors[`title.${language}`]} />
            </div>
            <div>
              <label htmlFor={`text.${language}`} className={label}>
                {m.ann_text_label()}
              </label>
              <textarea id={`text.${language}`} name={`text.${language}`} defaultValue={words.text} rows={8} maxLength={ANNOUNCEMENT_LIMITS.text} className={`${fieldClass} mt-1 font-mono text-sm`} lang={language} {...invalid(`text.${language}`)} aria-describedby={`text.${language}-hint${errors[`text.${language}`] ? ` text.${language}-error` : ""}`} />
              <p id={`text.${language}-hint`} className="mt-1 text-xs text-mist-400">
                {m.ann_text_hint()}
              </p>
              <FieldError id={`text.${language}-error`} error={errors[`text.${language}`]} />
            </div>
          </Card>
        );
      })}

      <Card className="space-y-4 p-5">
        <div>
          <label htmlFor="picture" className={label}>
            {m.ann_picture_label()}
          </label>
          {options.picture ? (
            <div className="mt-2 flex flex-wrap items-center gap-4">
              <img src={options.picture.url} alt={m.ann_picture_current()} width={options.picture.width} height={options.picture.height} className="h-24 w-auto rounded-lg border border-aurora-400/20" />
              <label className="flex items-center gap-2 text-sm text-mist-300">
                <input type="checkbox" name="removePicture" className="size-4 accent-ember-400" />
                {m.ann_picture_remove()}
              </label>
            </div>
          ) : null}
          {options.event && options.mode === "new" ? (
            <label className="mt-2 flex items-center gap-2 text-sm text-mist-300">
              <input type="checkbox" name="eventPicture" defaultChecked className="size-4 accent-ember-400" />
              {m.ann_event_picture()}
            </label>
          ) : null}
          <input id="picture" name="picture" type="file" accept="image/png,image/jpeg,image/webp" className="mt-2 block text-sm text-mist-300" {...invalid("picture")} />
          <p className="mt-1 text-xs text-mist-400">{m.ann_picture_hint()}</p>
          <FieldError id="picture-error" error={errors.picture} />
        </div>
      </Card>

      <Card className="space-y-5 p-5">
        <fieldset>
          <legend className={label}>{m.ann_audience_label()}</legend>
          <div className="mt-2 flex flex-wrap gap-4">
            {(["everyone", "members"] as const).map((audience) => (
              <label key={audience} className="flex items-center gap-2 text-sm text-mist-100">
                <input type="radio" name="audience" value={audience} defaultChecked={values.audience === audience} className="size-4 accent-ember-400" />
                {audience === "everyone" ? m.ann_audience_everyone() : m.ann_audience_members()}
              </label>
            ))}
          </div>
          <FieldError id="audience-error" error={errors.audience} />
        </fieldset>

        {options.configured.includes("vrchat") ? (
          <fieldset>
            <legend className={label}>{m.ann_roles_label()}</legend>
            {options.vrchatRoles === null ? (
              <p className="mt-1 text-sm text-mist-400">{m.ann_roles_unreadable()}</p>
            ) : options.vrchatRoles.length === 0 ? (
              <p className="mt-1 text-sm text-mist-400">{m.ann_roles_none()}</p>
            ) : (
              <div className="mt-2 flex flex-wrap gap-x-5 gap-y-2">
                {options.vrchatRoles.map((role) => (
                  <label key={role.id} className="flex items-center gap-2 text-sm text-mist-100">
                    <input type="checkbox" name="vrchatRole" value={role.id} defaultChecked={values.vrchatRoleIds.includes(role.id)} className="size-4 accent-ember-400" />
                    {role.name}
                  </label>
                ))}
              </div>
            )}
            <p className="mt-1 text-xs text-mist-400">{m.ann_roles_hint()}</p>
            <FieldError id="vrchatRole-error" error={errors.vrchatRole} />
            <label className="mt-3 flex items-center gap-2 text-sm text-mist-100">
              <input type="checkbox" name="notifyMembers" defaultChecked={values.notifyMembers} className="size-4 accent-ember-400" />
              {m.ann_notify_label()}
            </label>
          </fieldset>
        ) : null}

        {options.configured.includes("discord") ? (
          <div>
            <label htmlFor="discordRole" className={label}>
              {m.ann_mention_label()}
            </label>
            <select id="discordRole" name="discordRole" defaultValue={values.discordRoleId} className={`${fieldClass} mt-1 max-w-sm`} {...invalid("discordRole")}>
              <option value="">{m.ann_mention_none()}</option>
              {options.mentionRoles.map((role) => (
                <option key={role.id} value={role.id}>
                  @{role.name}
                </option>
              ))}
            </select>
            {options.mentionRoles.length === 0 ? <p className="mt-1 text-xs text-mist-400">{m.ann_mention_list_empty()}</p> : null}
            <FieldError id="discordRole-error" error={errors.discordRole} />
          </div>
        ) : null}

        <fieldset>
          <legend className={label}>{m.ann_places_label()}</legend>
          <div className="mt-2 flex flex-wrap gap-x-5 gap-y-2">
            {(["site", "vrchat", "discord"] as const).map((place) => {
              const ready = options.configured.includes(place);
              return (
                <label key={place} className={`flex items-center gap-2 text-sm ${ready ? "text-mist-100" : "text-mist-400"}`}>
                  <input type="checkbox" name="place" value={place} defaultChecked={ready && values.places.includes(place)} disabled={!ready} className="size-4 accent-ember-400" />
                  {placeName(place)}
                  {ready ? null : <span className="text-xs">({m.ann_place_off()})</span>}
                </label>
              );
            })}
          </div>
          <FieldError id="place-error" error={errors.place} />
        </fieldset>

        {options.published ? null : (
          <div>
            <label htmlFor="scheduleAt" className={label}>
              {m.ann_schedule_label()}
            </label>
            <input id="scheduleAt" name="scheduleAt" type="datetime-local" defaultValue={values.scheduleAt} className={`${fieldClass} mt-1 max-w-xs`} {...invalid("scheduleAt")} />
            <p className="mt-1 text-xs text-mist-400">{m.ann_schedule_hint({ zone: options.timeZone })}</p>
            <FieldError id="scheduleAt-error" error={errors.scheduleAt} />
          </div>
        )}
      </Card>

      <div className="flex flex-wrap gap-3">
        <Button type="submit" name="intent" value="preview" variant="outline" disabled={busy}>
          {m.ann_preview()}
        </Button>
        {options.mode === "edit" ? (
          <Button type="submit" name="intent" value="save" variant="gold" disabled={busy}>
            {options.published ? m.ann_save_everywhere() : m.ann_save()}
          </Button>
        ) : (
          <>
            <Button type="submit" name="intent" value="publish" variant="gold" disabled={busy}>
              {m.ann_publish_now()}
            </Button>
            <Button type="submit" name="intent" value="schedule" disabled={busy}>
              {m.ann_schedule()}
            </Button>
            <Button type="submit" name="intent" value="draft" variant="ghost" disabled={busy}>
              {m.ann_save_draft()}
            </Button>
          </>
        )}
      </div>
    </Form>
  );
}
