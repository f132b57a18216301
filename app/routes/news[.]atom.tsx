import { appContext } from "~/context";
import { ATOM_HEADERS, atomOf } from "~/features/announcements/news-feed.server";
import { listNews } from "~/features/announcements/announcements.server";
import { m } from "~/paraglide/messages";
import { log } from "~/utils/log.server";
import type { Route } from "./+types/news[.]atom";

const FEED_SIZE = 20;

/** /news.atom: the public announcements, for feed readers (members-only ones never). */
export async function loader({ context }: Route.LoaderArgs) {
  const { db, config, language } = context.get(appContext);
  const now = new Date();
  try {
    const { items } = await listNews(db, { now, language, defaultLanguage: config.SITE_LANGUAGES[0]!, limit: FEED_SIZE });
    const body = atomOf(items, { origin: config.PUBLIC_URL, title: m.news_feed_title(), language, updated: now });
    return new Response(body, { headers: { ...ATOM_HEADERS, "Cache-Control": "public, max-age=300" } });
  } catch (error) {
    log.error("failed to make the news feed", { error });
    return new Response(m.news_feed_failed(), { status: 503, headers: { "Retry-After": "60", "Content-Type": "text/plain; charset=utf-8" } });
  }
}
