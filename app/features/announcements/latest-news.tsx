/** The latest announcement on the home page (kept small: the home page carries it). */
import { ArrowRight } from "lucide";
import { href, Link } from "react-router";
import { Card } from "~/components/ui/card";
import { Icon } from "~/components/ui/icon";
import { m } from "~/paraglide/messages";
import { dateFormat } from "~/utils/language";
import { useViewerTimeZone } from "~/utils/viewer-time-zone";

/** A day in the reader's zone. */
function NewsDate({ iso }: { iso: string }) {
  const timeZone = useViewerTimeZone();
  return <time dateTime={iso}>{dateFormat({ dateStyle: "long", timeZone }).format(new Date(iso))}</time>;
}

/** The latest announcement, on the home page. */
export function LatestNews({ item }: { item: { id: string; title: string; summary: string; publishedAt: string; language: string } }) {
  return (
    <section aria-labelledby="news-heading" className="mx-auto max-w-6xl px-4 py-12 sm:px-6">
      <div className="mb-6 flex flex-wrap items-end justify-between gap-3">
        <h2 id="news-heading" className="font-display text-3xl text-mist-100">
          {m.news_latest_heading()}
        </h2>
        <Link to={href("/news")} className="inline-flex items-center gap-1 text-sm font-semibold text-aurora-300 hover:text-ember-300">
          {m.news_all()}
          <Icon node={ArrowRight} className="size-4" />
        </Link>
      </div>
      <Card className="p-6">
        <p className="text-sm text-mist-400">
          <NewsDate iso={item.publishedAt} />
        </p>
        <h3 className="mt-2 font-display text-2xl text-mist-100" lang={item.language}>
          <Link to={href("/news/:id", { id: item.id })} className="hover:text-ember-300">
            {item.title}
          </Link>
        </h3>
        <p className="mt-2 text-mist-300" lang={item.language}>
          {item.summary}
        </p>
      </Card>
    </section>
  );
}
