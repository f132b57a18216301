import { appContext } from "~/context";
import { eventCardImage } from "~/features/events/event-card-image.server";
import { getEvent } from "~/features/events/events.server";
import { log } from "~/utils/log.server";
import type { Route } from "./+types/events.$id.card[.]jpg";
import { chooseLanguage } from "~/utils/language";
import { inLanguage } from "~/utils/language.server";

/**
 * /events/{id}/card.jpg: the event's picture where its link is pasted. Asked for with its current
 * version (`?v=`, as the page links it), it may be kept for a day; otherwise for five minutes. Its
 * words are in the language its address names (`?lang=`, as a page in that language links it), else
 * the site's default: never the asker's browser, so that one address is one picture for every cache.
 */
export async function loader({ request, params, context }: Route.LoaderArgs) {
  const { db, config } = context.get(appContext);
  try {
    const event = await getEvent(db, params.id);
    if (!event) return new Response("No such event.", { status: 404, headers: { "Content-Type": "text/plain; charset=utf-8" } });
    const url = new URL(request.url);
    const language = chooseLanguage(config.SITE_LANGUAGES, { query: url.searchParams.get("lang") });
    const { image, version } = await inLanguage(language, () => eventCardImage(event, new URL(config.VRCHAT_API_URL).origin));
    const current = url.searchParams.get("v") === version;
    return new Response(new Uint8Array(image), {
      headers: {
        "Content-Type": "image/jpeg",
        "Content-Length": String(image.length),
        "Cache-Control": `public, max-age=${current ? 86_400 : 300}`,
        ETag: `"${event.id}-${version}"`,
      },
    });
  } catch (error) {
    log.error("failed to draw an event's picture", { error, eventId: params.id });
    return new Response("The picture could not be made just now. Please try again later.", { status: 503, headers: { "Retry-After": "60" } });
  }
}
