import { data, href } from "react-router";
import { z } from "zod";
import { EmptyState } from "~/components/ui/empty-state";
import { appContext } from "~/context";
import { summaryOf } from "~/features/announcements/announcement-text";
import { getNews } from "~/features/announcements/announcements.server";
import { eventStart } from "~/features/events/event-timing";
import { getEvent } from "~/features/events/events.server";
import { NewsArticle } from "~/features/announcements/news-parts";
import { m } from "~/paraglide/messages";
import { log } from "~/utils/log.server";
import { previewMeta } from "~/utils/preview-meta.server";
import type { Route } from "./+types/_site.news.$id";

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const { db, config, language } = context.get(appContext);
  const id = z.uuid().safeParse(params.id);
  try {
    // A members-only announcement is not found here: no page, no preview, for anyone.
    const item = id.success ? await getNews(db, id.data, { now: new Date(), language, defaultLanguage: config.SITE_LANGUAGES[0]! }) : null;
    if (!item) return data({ item: null, meta: null }, { status: 404 });
    const origin = config.PUBLIC_URL;
    const path = new URL(request.url).pathname;
    const description = summaryOf(item.text, 300);
    const image = item.picture ? { url: `${origin}${href("/news/:id/picture", { id: item.id })}`, alt: item.title, width: item.picture.width, height: item.picture.height } : undefined;
    const meta = previewMeta(origin, {
      title: `${item.title} · Dwell`,
      previewTitle: item.title,
      description,
      path,
      type: "article",
      image,
      structuredData: {
        "@context": "https://schema.org",
        "@type": "NewsArticle",
        headline: item.title,
        description,
        datePublished: item.publishedAt,
        dateModified: item.updatedAt,
        inLanguage: item.language,
        url: `${origin}${path}`,
        ...(image ? { image: [image.url] } : {}),
        publisher: { "@type": "Organization", name: "The Dwellers", url: origin },
      },
    });
    // An event's announcement says when (in the reader's zone) and links its page.
    const event = item.eventId ? await getEvent(db, item.eventId) : null;
    return { item: { ...item, event: event ? { id: event.id, start: eventStart(event).toISOString() } : null }, meta };
  } catch (error) {
    log.error("failed to read an announcement", { error });
    return data({ item: null, meta: null }, { status: 503 });
  }
}

export function meta({ loaderData }: Route.MetaArgs) {
  return loaderData?.meta ?? [{ title: m.news_not_found_title() }];
}

export default function NewsItemPage({ loaderData }: Route.ComponentProps) {
  if (!loaderData.item) {
    return (
      <div className="mx-auto max-w-3xl px-4 py-16 sm:px-6">
        <EmptyState title={m.news_not_found_title()} description={m.news_not_found_text()} />
      </div>
    );
  }
  return <NewsArticle item={loaderData.item} />;
}
