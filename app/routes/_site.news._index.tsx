import { Newspaper, Rss } from "lucide";
import { data, href, Link } from "react-router";
import { EmptyState } from "~/components/ui/empty-state";
import { Icon } from "~/components/ui/icon";
import { appContext } from "~/context";
import { NEWS_PAGE_SIZE } from "~/features/announcements/announcement-input";
import { summaryOf } from "~/features/announcements/announcement-text";
import { listMadePostIds, listNews } from "~/features/announcements/announcements.server";
import { NewsList, type NewsEntry } from "~/features/announcements/news-parts";
import { m } from "~/paraglide/messages";
import { log } from "~/utils/log.server";
import { previewMeta } from "~/utils/preview-meta.server";
import type { Route } from "./+types/_site.news._index";

/** Deeper pages than this are not offered (the feed and the Sanctum keep the rest). */
const MAX_PAGE = 50;

export async function loader({ request, context }: Route.LoaderArgs) {
  const { db, config, vrchat, language } = context.get(appContext);
  const asked = Number(new URL(request.url).searchParams.get("page") ?? "1");
  const page = Number.isInteger(asked) && asked >= 1 && asked <= MAX_PAGE ? asked : null;
  const meta = previewMeta(config.PUBLIC_URL, { title: m.news_title(), previewTitle: m.news_heading(), description: m.news_intro(), path: "/news" });
  if (page === null) return data({ meta, entries: [] as NewsEntry[], page: 1, pages: 1, error: null }, { status: 404 });
  try {
    const now = new Date();
    // The announcements up to this page, and VRChat's own public posts (already read for the home
    // page: no call to VRChat here), newest first together.
    const [news, group, made] = await Promise.all([
      listNews(db, { now, language, defaultLanguage: config.SITE_LANGUAGES[0]!, limit: page * NEWS_PAGE_SIZE }),
      vrchat.groupData.peek().catch(() => null),
      listMadePostIds(db),
    ]);
    const posts = group?.status === "ready" ? group.data.posts.filter((post) => !made.has(post.id)) : [];
    const entries: NewsEntry[] = [
      ...news.items.map((item) => ({ kind: "announcement" as const, id: item.id, title: item.title, summary: summaryOf(item.text, 280), publishedAt: item.publishedAt, language: item.language, picture: item.picture })),
      ...posts.map((post) => ({ kind: "vrchat" as const, id: post.id, title: post.title, text: post.text, publishedAt: post.createdAt, imageUrl: post.imageUrl })),
    ].toSorted((a, b) => Date.parse(b.publishedAt) - Date.parse(a.publishedAt));
    const total = news.total + posts.length;
    const pages = Math.max(1, Math.ceil(total / NEWS_PAGE_SIZE));
    return { meta, entries: entries.slice((page - 1) * NEWS_PAGE_SIZE, page * NEWS_PAGE_SIZE), page, pages: Math.min(pages, MAX_PAGE), error: null };
  } catch (error) {
    log.error("failed to read the news", { error });
    return data({ meta, entries: [] as NewsEntry[], page, pages: 1, error: m.news_failed() }, { status: 503 });
  }
}

export function meta({ loaderData }: Route.MetaArgs) {
  return loaderData?.meta ?? [{ title: m.news_title() }];
}

export default function NewsPage({ loaderData }: Route.ComponentProps) {
  const { entries, page, pages, error } = loaderData;
  const pageLink = (n: number) => (n === 1 ? href("/news") : `${href("/news")}?page=${n}`);
  return (
    <div className="mx-auto max-w-4xl px-4 py-12 sm:px-6">
      <h1 className="font-display text-5xl text-mist-100">{m.news_heading()}</h1>
      <p className="mt-3 max-w-2xl text-mist-300">{m.news_intro()}</p>
      <p className="mt-4 text-sm">
        <a href={href("/news.atom")} className="inline-flex items-center gap-1.5 font-semibold text-aurora-300 underline hover:text-ember-300">
          <Icon node={Rss} className="size-4" />
          {m.news_feed_link()}
        </a>
      </p>
      <div className="mt-10">
        {error ? (
          <p role="alert" className="rounded-xl border border-red-400/40 bg-red-500/10 px-4 py-3 text-red-200">
            {error}
          </p>
        ) : entries.length === 0 ? (
          <EmptyState icon={<Icon node={Newspaper} className="size-10" />} title={m.news_empty_title()} description={m.news_empty_text()} />
        ) : (
          <NewsList entries={entries} />
        )}
      </div>
      {pages > 1 ? (
        <nav aria-label={m.news_pages()} className="mt-8 flex items-center justify-between text-sm">
          {page > 1 ? (
            <Link to={pageLink(page - 1)} className="font-semibold text-aurora-300 hover:text-ember-300" rel="prev">
              ← {m.news_newer()}
            </Link>
          ) : (
            <span />
          )}
          <span className="text-mist-400">{m.news_page_of({ page: String(page), pages: String(pages) })}</span>
          {page < pages ? (
            <Link to={pageLink(page + 1)} className="font-semibold text-aurora-300 hover:text-ember-300" rel="next">
              {m.news_older()} →
            </Link>
          ) : (
            <span />
          )}
        </nav>
      ) : null}
    </div>
  );
}
