import { Lock } from "lucide";
import { Icon } from "~/components/ui/icon";
import { useFetcher } from "react-router";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { Card } from "~/components/ui/card";
import { ConfirmDialog } from "~/components/ui/confirm-dialog";
import { m } from "~/paraglide/messages";

export interface MembersOnlyListing {
  events: { id: string; title: string; startsAt: string; imported: boolean }[];
  posts: { id: string; title: string; createdAt: string }[];
}

function ImportButton({ event }: { event: MembersOnlyListing["events"][number] }) {
  const fetcher = useFetcher<{ message?: string; error?: string }>();
  const confirm = (
    <fetcher.Form method="post">
      <input type="hidden" name="intent" value="import-vrchat-event" />
      <input type="hidden" name="vrchatEventId" value={event.id} />
      <Button type="submit">{m.mo_import()}</Button>
    </fetcher.Form>
  );
  return (
    <>
      <ConfirmDialog
        trigger={
          <Button size="sm" variant="outline" disabled={fetcher.state !== "idle"} aria-label={m.mo_import_label({ title: event.title })}>
            {m.mo_import_button()}
          </Button>
        }
        title={m.mo_import_title({ title: event.title })}
        description={m.mo_import_description()}
        action={confirm}
      />
      {fetcher.data?.error ? <span role="alert" className="text-sm text-red-300">{fetcher.data.error}</span> : null}
    </>
  );
}

/**
 * What VRChat shows only to the group's members: listed here, for admins, and never on a public
 * page. An admin may import a members-only event as a site event, which makes it public.
 */
export function MembersOnlyPanel({ listing, formatDate }: { listing: MembersOnlyListing; formatDate: (iso: string) => string }) {
  if (listing.events.length === 0 && listing.posts.length === 0) return null;
  return (
    <Card className="p-6">
      <h2 className="flex items-center gap-2 font-display text-2xl text-mist-100">
        <Icon node={Lock} className="size-5 text-ember-300" />
        {m.mo_heading()}
      </h2>
      <p className="mt-2 text-sm text-mist-300">
        {m.mo_text()}
      </p>
      {listing.events.length > 0 ? (
        <section className="mt-4">
          <h3 className="text-sm font-semibold text-mist-300">{m.mo_calendar()}</h3>
          <ul className="mt-2 divide-y divide-aurora-400/10">
            {listing.events.map((event) => (
              <li key={event.id} className="flex flex-wrap items-center justify-between gap-3 py-2">
                <span>
                  <span className="font-semibold text-mist-100">{event.title}</span>{" "}
                  <span className="text-sm text-mist-400">{formatDate(event.startsAt)}</span>{" "}
                  <Badge tone="gold">{m.mo_members_only()}</Badge>
                </span>
                {event.imported ? <Badge tone="live">{m.mo_on_site()}</Badge> : <ImportButton event={event} />}
              </li>
            ))}
          </ul>
        </section>
      ) : null}
      {listing.posts.length > 0 ? (
        <section className="mt-4">
          <h3 className="text-sm font-semibold text-mist-300">{m.mo_posts()}</h3>
          <ul className="mt-2 divide-y divide-aurora-400/10">
            {listing.posts.map((post) => (
              <li key={post.id} className="flex flex-wrap items-center gap-2 py-2">
                <span className="font-semibold text-mist-100">{post.title}</span>
                <span className="text-sm text-mist-400">{formatDate(post.createdAt)}</span>
                <Badge tone="gold">{m.mo_members_only()}</Badge>
              </li>
            ))}
          </ul>
        </section>
      ) : null}
    </Card>
  );
}
