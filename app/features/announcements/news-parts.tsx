/** The site's news: the list (/news), one announcement's page, and the latest on the home page. */
import { href, Link } from "react-router";
import { Badge } from "~/components/ui/badge";
import { Card } from "~/components/ui/card";
import { m } from "~/paraglide/messages";
import { AnnouncementBody } from "./announcement-body";
import { dateFormat } from "~/utils/language";
import { useViewerTimeZone } from "~/utils/viewer-time-zone";

/** A day in the reader's zone (the home page's latest news has its own: it loads nothing of this file). */
function NewsDate({ iso }: { iso: string }) {
  const timeZone = useViewerTimeZone();
  return <time dateTime={iso}>{dateFormat({ dateStyle: "long", timeZone }).format(new Date(iso))}</time>;
}

/** An entry of /news: an announcement written here, or a post made in VRChat directly. */
export type NewsEntry =
  | { kind: "announcement"; id: string; title: string; summary: string; publishedAt: string; language: string; picture: { width: number; height: number } | null }
  | { kind: "vrchat"; id: string; title: string; text: string; publishedAt: string; imageUrl: string | null };

export const newsPicturePath = (id: string) => href("/news/:id/picture", { id });

function NewsCard({ entry }: { entry: NewsEntry }) {
  const picture = entry.kind === "announcement" ? (entry.picture ? { src: newsPicturePath(entry.id), ...entry.picture } : null) : entry.imageUrl ? { src: entry.imageUrl, width: undefined, height: undefined } : null;
  return (
    <Card className="overflow-hidden">
      <article className="flex flex-col gap-4 p-5 sm:flex-row">
        {picture ? <img src={picture.src} alt="" width={picture.width} height={picture.height} loading="lazy" className="h-40 w-full shrink-0 rounded-lg object-cover sm:h-28 sm:w-44" /> : null}
        <div className="min-w-0">
          <p className="flex flex-wrap items-center gap-2 text-sm text-mist-400">
            <NewsDate iso={entry.publishedAt} />
            {entry.kind === "vrchat" ? <Badge tone="muted">{m.news_posted_in_vrchat()}</Badge> : null}
          </p>
          <h2 className="mt-1 font-display text-2xl text-mist-100">
            {entry.kind === "announcement" ? (
              <Link to={href("/news/:id", { id: entry.id })} className="hover:text-ember-300" lang={entry.language}>
                {entry.title}
              </Link>
            ) : (
              entry.title
            )}
          </h2>
          {entry.kind === "announcement" ? (
            <p className="mt-2 text-mist-300" lang={entry.language}>
              {entry.summary}
            </p>
          ) : (
            <p className="mt-2 whitespace-pre-line text-mist-300">{entry.text}</p>
          )}
        </div>
      </article>
    </Card>
  );
}

export function NewsList({ entries }: { entries: NewsEntry[] }) {
  return (
    <ul className="space-y-4">
      {entries.map((entry) => (
        <li key={`${entry.kind}:${entry.id}`}>
          <NewsCard entry={entry} />
        </li>
      ))}
    </ul>
  );
}

export interface NewsArticleData {
  id: string;
  title: string;
  text: string;
  language: string;
  publishedAt: string;
  picture: { width: number; height: number } | null;
  /** The event it announces: its start, shown in the reader's zone, and its page. */
  event: { id: string; start: string } | null;
}

function EventLine({ event }: { event: { id: string; start: string } }) {
  const timeZone = useViewerTimeZone();
  const when = dateFormat({ dateStyle: "full", timeStyle: "short", timeZone }).format(new Date(event.start));
  return (
    <p className="mt-6 rounded-xl border border-aurora-400/30 bg-aurora-500/10 px-4 py-3 text-mist-100">
      <time dateTime={event.start}>{when}</time> ·{" "}
      <Link to={href("/events/:id", { id: event.id })} className="font-semibold text-aurora-300 underline hover:text-ember-300">
        {m.news_event_page()}
      </Link>
    </p>
  );
}

export function NewsArticle({ item }: { item: NewsArticleData }) {
  return (
    <article className="mx-auto max-w-3xl px-4 py-12 sm:px-6" lang={item.language}>
      <p className="text-sm text-mist-400">
        <Link to={href("/news")} className="text-aurora-300 underline hover:text-ember-300">
          {m.news_heading()}
        </Link>{" "}
        · <NewsDate iso={item.publishedAt} />
      </p>
      <h1 className="mt-3 font-display text-4xl text-mist-100 sm:text-5xl">{item.title}</h1>
      {item.event ? <EventLine event={item.event} /> : null}
      {item.picture ? <img src={newsPicturePath(item.id)} alt="" width={item.picture.width} height={item.picture.height} className="mt-6 h-auto w-full rounded-2xl" /> : null}
      <AnnouncementBody text={item.text} className="mt-6 text-lg leading-relaxed text-mist-300" />
    </article>
  );
}
