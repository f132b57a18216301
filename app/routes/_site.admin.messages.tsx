import { data, href, Link } from "react-router";
import { z } from "zod";
import { BackLink, ErrorAlert, Notice } from "~/components/ui/alert";
import { appContext } from "~/context";
import { DecisionMessageEditor } from "~/features/decisions/decision-message-editor";
import { DECISION_MESSAGE_MAX_LENGTH, DECISION_OUTCOMES, PLACEHOLDERS, type MessageKind } from "~/features/decisions/decision-messages";
import { listDecisionMessages, saveDecisionMessage, type MessageScope } from "~/features/decisions/decisions.server";
import { getEvent } from "~/features/events/events.server";
import { requireStaff } from "~/routes/staff-guard.server";
import { log } from "~/utils/log.server";
import { copyToFollowing } from "~/flows/event-series.server";
import { UseForFollowing, usedForFollowingText } from "~/features/events/use-for-following";
import { m } from "~/paraglide/messages";
import { LANGUAGE_NAMES } from "~/utils/language";
import { formatLongDate, formatLongDateTime } from "~/features/events/event-timing";
import type { Route } from "./+types/_site.admin.messages";

/** /admin/messages: the group's messages and every event's; /admin/events/:eventId/messages: one event's. */
async function eventOf(db: Parameters<typeof getEvent>[0], eventId: string | undefined) {
  if (!eventId) return { event: null };
  const event = await getEvent(db, eventId);
  return event ? { event: { id: event.id, title: event.title, inSeries: event.seriesId !== null } } : null;
}

/** The language whose texts are edited: `?language=` if the site offers it, else the default. */
function editedLanguage(request: Request, languages: readonly string[]) {
  const asked = new URL(request.url).searchParams.get("language");
  return asked && languages.includes(asked) ? asked : languages[0]!;
}

export async function loader({ request, params, context }: Route.LoaderArgs) {
  await requireStaff(request, context, "messages");
  const { db, config } = context.get(appContext);
  const discordInvite = config.DISCORD_INVITE_URL ?? null;
  const languages = config.SITE_LANGUAGES;
  const language = editedLanguage(request, languages);
  const base = { event: null, sections: [], discordInvite, languages, language };
  try {
    const found = await eventOf(db, params.eventId);
    if (!found) return data({ ...base, error: m.event_not_found_admin() }, { status: 404 });
    const scopes: MessageScope[] = found.event ? [{ kind: "event", eventId: found.event.id }] : [{ kind: "group" }, { kind: "event" }];
    const sections = await Promise.all(
      scopes.map(async (scope) => ({ kind: scope.kind, messages: await listDecisionMessages(db, scope, language, languages[0]!) })),
    );
    return { ...base, error: null, event: found.event, sections };
  } catch (error) {
    log.error("failed to load decision messages", { error });
    return data({ ...base, error: m.dmp_load_failed() }, { status: 503 });
  }
}

const SaveSchema = z.object({
  intent: z.enum(["save", "reset"]),
  kind: z.enum(["group", "event"]),
  outcome: z.enum(DECISION_OUTCOMES),
  language: z.string().optional(),
  body: z.string().max(DECISION_MESSAGE_MAX_LENGTH, { error: () => m.dmp_too_long({ max: DECISION_MESSAGE_MAX_LENGTH }) }).default(""),
});

export async function action({ request, params, context }: Route.ActionArgs) {
  await requireStaff(request, context, "messages");
  const { db, config } = context.get(appContext);
  const found = await eventOf(db, params.eventId);
  if (!found) return data({ error: m.event_not_found_admin() }, { status: 404 });
  const form = await request.formData().catch(() => null);
  if (form?.get("intent") === "use-for-following") {
    if (!found.event) return data({ error: m.dmp_not_saved() }, { status: 400 });
    try {
      const result = await copyToFollowing(db, found.event.id, "messages");
      if (!result) return data({ error: m.dmp_no_repeat() }, { status: 409 });
      return { ok: true, usedForFollowing: usedForFollowingText("messages", result) };
    } catch (error) {
      log.error("failed to copy messages to a series' following events", { error });
      return data({ error: m.dmp_not_copied() }, { status: 503 });
    }
  }
  const parsed = SaveSchema.safeParse(form ? Object.fromEntries(form) : {});
  if (!parsed.success) return data({ error: parsed.error.issues[0]?.message ?? m.dmp_not_saved() }, { status: 400 });
  const { intent, kind, outcome, body } = parsed.data;
  const language = parsed.data.language ?? config.SITE_LANGUAGES[0]!;
  if (!config.SITE_LANGUAGES.includes(language)) return data({ error: m.language_not_offered() }, { status: 400 });
  if (found.event && kind !== "event") return data({ error: m.dmp_not_saved() }, { status: 400 });
  const scope: MessageScope = found.event ? { kind: "event", eventId: found.event.id } : { kind };
  if (intent === "save" && !body.trim()) return data({ error: m.dmp_write_or_default() }, { status: 400 });
  try {
    await saveDecisionMessage(db, scope, outcome, language, intent === "reset" ? "" : body);
    return { ok: true, message: intent === "reset" ? m.dmp_back_default() : m.dmp_saved() };
  } catch (error) {
    log.error("failed to save a decision message", { error });
    return data({ error: m.dmp_not_saved() }, { status: 503 });
  }
}

export function meta() {
  return [{ title: m.dmp_title() }];
}

const SECTION: Record<MessageKind, { title: () => string; hint: () => string }> = {
  group: { title: m.dmp_group_title, hint: m.dmp_group_hint },
  event: { title: m.dmp_event_title, hint: m.dmp_event_hint },
};

/**
 * One tab per language: staff write each message in every language the site offers; one without its
 * own text in a language uses the default language's (the applicant's status page says so).
 */
function LanguageTabs({ languages, current }: { languages: readonly string[]; current: string }) {
  return (
    <nav aria-label={m.dmp_language_label()} className="flex flex-wrap gap-2">
      {languages.map((language, index) => (
        <Link
          key={language}
          to={`?language=${language}`}
          aria-current={language === current ? "page" : undefined}
          className="rounded-full border border-aurora-400/30 px-3 py-1 text-sm text-mist-200 aria-[current=page]:bg-aurora-400/20 aria-[current=page]:text-mist-100"
        >
          {LANGUAGE_NAMES[language] ?? language}
          {index === 0 ? m.dmp_main() : ""}
        </Link>
      ))}
    </nav>
  );
}

export default function DecisionMessages({ loaderData, actionData }: Route.ComponentProps) {
  const { error, event, sections, discordInvite, languages, language } = loaderData;
  const copied = actionData && "usedForFollowing" in actionData ? actionData.usedForFollowing : null;
  // A fixed example day (the preview reads the same on the server and in the browser), in the page's language.
  const day = new Date(Date.UTC(2026, 10, 28, 20));
  const exampleDates = { day: formatLongDate(day, "UTC"), dayAndTime: formatLongDateTime(day, "UTC") };
  return (
    <div className="space-y-6">
      {event ? <BackLink to={href("/admin/events/:eventId/applications", { eventId: event.id })}>{m.dmp_back()}</BackLink> : null}
      <div>
        <h1 className="font-display text-4xl text-mist-100">{m.dmp_heading()}</h1>
        {event ? <p className="mt-2 text-mist-300">{event.title}</p> : null}
        <p className="mt-2 max-w-2xl text-sm text-mist-400">
          {m.dmp_intro()}
          {event ? null : (
            <>
              {m.dmp_each_event()}
              <em>{m.dmp_each_event_link()}</em>
              {m.dmp_each_event_end()}
            </>
          )}
        </p>
      </div>
      {error ? <ErrorAlert>{error}</ErrorAlert> : null}
      {languages.length > 1 ? <LanguageTabs languages={languages} current={language} /> : null}
      {event?.inSeries ? <UseForFollowing what="messages" /> : null}
      {copied ? <Notice>{copied}</Notice> : null}
      <section aria-labelledby="placeholders" className="rounded-lg border border-aurora-400/15 p-4 text-sm text-mist-300">
        <h2 id="placeholders" className="font-semibold text-mist-100">{m.dmp_placeholders()}</h2>
        <ul className="mt-1 grid gap-x-6 sm:grid-cols-2">
          {PLACEHOLDERS.map((placeholder) => (
            <li key={placeholder.name}>
              <code className="text-ember-300">{placeholder.name}</code>: {placeholder.means()}
            </li>
          ))}
        </ul>
        {discordInvite ? null : (
          <p className="mt-2 text-mist-400">{m.dmp_no_invite({ placeholder: "{discord_invite}", reads: m.decision_our_discord() })}</p>
        )}
      </section>
      {sections.map((section) => (
        <section key={section.kind} aria-labelledby={`section-${section.kind}`} className="space-y-3">
          <div>
            <h2 id={`section-${section.kind}`} className="font-display text-2xl text-mist-100">
              {event ? m.dmp_this_event() : SECTION[section.kind].title()}
            </h2>
            <p className="text-sm text-mist-400">
              {event ? (
                <>
                  {m.dmp_empty_uses()}
                  <Link className="text-aurora-300 underline" to={href("/admin/messages")}>
                    {m.dmp_every_event_link()}
                  </Link>
                  {m.dmp_empty_uses_end()}
                </>
              ) : (
                SECTION[section.kind].hint()
              )}
            </p>
          </div>
          {section.messages.map((message) => (
            <DecisionMessageEditor
              key={`${language}-${message.outcome}`}
              kind={section.kind}
              language={language}
              message={message}
              fallbackLabel={
                message.language !== language
                  ? m.dm_fallback_text({ language: LANGUAGE_NAMES[message.language] ?? message.language })
                  : event
                    ? m.dm_fallback_events()
                    : m.dm_fallback_default()
              }
              discordInvite={discordInvite}
              exampleDates={exampleDates}
            />
          ))}
        </section>
      ))}
    </div>
  );
}
