import { data, href, Link } from "react-router";
import { z } from "zod";
import { BackLink, ErrorAlert, Notice } from "~/components/ui/alert";
import { appContext } from "~/context";
import { DecisionMessageEditor } from "~/features/decisions/decision-message-editor";
import { DECISION_MESSAGE_MAX_LENGTH, DECISION_OUTCOMES, PLACEHOLDERS, type MessageKind } from "~/features/decisions/decision-messages";
import { listDecisionMessages, saveDecisionMessage, type MessageScope } from "~/features/decisions/decisions.server";
import { getEvent } from "~/features/events/events.server";
import { requireStaff } from "~/utils/admin-guard.server";
import { log } from "~/utils/log.server";
import { copyToFollowing } from "~/flows/event-series.server";
import { UseForFollowing, usedForFollowingText } from "~/features/events/use-for-following";
import { m } from "~/paraglide/messages";
import { LANGUAGE_NAMES } from "~/utils/language";
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
    if (!found) return data({ ...base, error: "Event not found" }, { status: 404 });
    const scopes: MessageScope[] = found.event ? [{ kind: "event", eventId: found.event.id }] : [{ kind: "group" }, { kind: "event" }];
    const sections = await Promise.all(
      scopes.map(async (scope) => ({ kind: scope.kind, messages: await listDecisionMessages(db, scope, language, languages[0]!) })),
    );
    return { ...base, error: null, event: found.event, sections };
  } catch (error) {
    log.error("failed to load decision messages", { error });
    return data({ ...base, error: "Failed to load the decision messages" }, { status: 503 });
  }
}

const SaveSchema = z.object({
  intent: z.enum(["save", "reset"]),
  kind: z.enum(["group", "event"]),
  outcome: z.enum(DECISION_OUTCOMES),
  language: z.string().optional(),
  body: z.string().max(DECISION_MESSAGE_MAX_LENGTH, { error: `A message is at most ${DECISION_MESSAGE_MAX_LENGTH} characters.` }).default(""),
});

export async function action({ request, params, context }: Route.ActionArgs) {
  await requireStaff(request, context, "messages");
  const { db, config } = context.get(appContext);
  const found = await eventOf(db, params.eventId);
  if (!found) return data({ error: "Event not found" }, { status: 404 });
  const form = await request.formData().catch(() => null);
  if (form?.get("intent") === "use-for-following") {
    if (!found.event) return data({ error: "The message could not be saved." }, { status: 400 });
    try {
      const result = await copyToFollowing(db, found.event.id, "messages");
      if (!result) return data({ error: "This event does not repeat." }, { status: 409 });
      return { ok: true, usedForFollowing: usedForFollowingText("messages", result) };
    } catch (error) {
      log.error("failed to copy messages to a series' following events", { error });
      return data({ error: "The messages could not be copied." }, { status: 503 });
    }
  }
  const parsed = SaveSchema.safeParse(form ? Object.fromEntries(form) : {});
  if (!parsed.success) return data({ error: parsed.error.issues[0]?.message ?? "The message could not be saved." }, { status: 400 });
  const { intent, kind, outcome, body } = parsed.data;
  const language = parsed.data.language ?? config.SITE_LANGUAGES[0]!;
  if (!config.SITE_LANGUAGES.includes(language)) return data({ error: m.language_not_offered() }, { status: 400 });
  if (found.event && kind !== "event") return data({ error: "The message could not be saved." }, { status: 400 });
  const scope: MessageScope = found.event ? { kind: "event", eventId: found.event.id } : { kind };
  if (intent === "save" && !body.trim()) return data({ error: "Write a message, or use the default instead." }, { status: 400 });
  try {
    await saveDecisionMessage(db, scope, outcome, language, intent === "reset" ? "" : body);
    return { ok: true, message: intent === "reset" ? "The message is back to its default." : "Message saved." };
  } catch (error) {
    log.error("failed to save a decision message", { error });
    return data({ error: "The message could not be saved." }, { status: 503 });
  }
}

export function meta() {
  return [{ title: "Decision Messages · The Sanctum" }];
}

const SECTION: Record<MessageKind, { title: string; hint: string }> = {
  group: { title: "Joining the group", hint: "What applicants to the group read once their application is decided." },
  event: { title: "Events", hint: "What event applicants read, for every event that has no message of its own." },
};

/**
 * One tab per language: staff write each message in every language the site offers; one without its
 * own text in a language uses the default language's (the applicant's status page says so).
 */
function LanguageTabs({ languages, current }: { languages: readonly string[]; current: string }) {
  return (
    <nav aria-label="Message language" className="flex flex-wrap gap-2">
      {languages.map((language, index) => (
        <Link
          key={language}
          to={`?language=${language}`}
          aria-current={language === current ? "page" : undefined}
          className="rounded-full border border-aurora-400/30 px-3 py-1 text-sm text-mist-200 aria-[current=page]:bg-aurora-400/20 aria-[current=page]:text-mist-100"
        >
          {LANGUAGE_NAMES[language] ?? language}
          {index === 0 ? " (main)" : ""}
        </Link>
      ))}
    </nav>
  );
}

export default function DecisionMessages({ loaderData, actionData }: Route.ComponentProps) {
  const { error, event, sections, discordInvite, languages, language } = loaderData;
  const copied = actionData && "usedForFollowing" in actionData ? actionData.usedForFollowing : null;
  return (
    <div className="space-y-6">
      {event ? <BackLink to={href("/admin/events/:eventId/applications", { eventId: event.id })}>Back to Event Applications</BackLink> : null}
      <div>
        <h1 className="font-display text-4xl text-mist-100">Decision Messages</h1>
        {event ? <p className="mt-2 text-mist-300">{event.title}</p> : null}
        <p className="mt-2 max-w-2xl text-sm text-mist-400">
          Applicants read these on their status page (and in a Discord message when the site sends one). The text is fixed
          when an application is decided: editing it later does not change what was already sent.
          {event ? null : (
            <>
              {" "}Each event can have its own: open an event's applications, then <em>Decision messages</em>.
            </>
          )}
        </p>
      </div>
      {error ? <ErrorAlert>{error}</ErrorAlert> : null}
      {languages.length > 1 ? <LanguageTabs languages={languages} current={language} /> : null}
      {event?.inSeries ? <UseForFollowing what="messages" /> : null}
      {copied ? <Notice>{copied}</Notice> : null}
      <section aria-labelledby="placeholders" className="rounded-lg border border-aurora-400/15 p-4 text-sm text-mist-300">
        <h2 id="placeholders" className="font-semibold text-mist-100">Placeholders</h2>
        <ul className="mt-1 grid gap-x-6 sm:grid-cols-2">
          {PLACEHOLDERS.map((placeholder) => (
            <li key={placeholder.name}>
              <code className="text-ember-300">{placeholder.name}</code>: {placeholder.means}
            </li>
          ))}
        </ul>
        {discordInvite ? null : (
          <p className="mt-2 text-mist-400">DISCORD_INVITE_URL is not set: <code>{"{discord_invite}"}</code> reads "our Discord server".</p>
        )}
      </section>
      {sections.map((section) => (
        <section key={section.kind} aria-labelledby={`section-${section.kind}`} className="space-y-3">
          <div>
            <h2 id={`section-${section.kind}`} className="font-display text-2xl text-mist-100">
              {event ? "This event" : SECTION[section.kind].title}
            </h2>
            <p className="text-sm text-mist-400">
              {event ? (
                <>
                  Empty, it uses the <Link className="text-aurora-300 underline" to={href("/admin/messages")}>messages for every event</Link>.
                </>
              ) : (
                SECTION[section.kind].hint
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
                message.language !== language ? `the ${LANGUAGE_NAMES[message.language] ?? message.language} text` : event ? "the events' message" : "the default"
              }
              discordInvite={discordInvite}
            />
          ))}
        </section>
      ))}
    </div>
  );
}
