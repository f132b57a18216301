import { Plus } from "lucide";
import { data, Form, href, Link } from "react-router";
import { ErrorAlert, SuccessAlert } from "~/components/ui/alert";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { Card } from "~/components/ui/card";
import { EmptyState } from "~/components/ui/empty-state";
import { Icon } from "~/components/ui/icon";
import { appContext } from "~/context";
import { PlaceBadges, publishedWhen } from "~/features/announcements/announcement-places";
import { getMentionRoleIds, listAnnouncements, setMentionRoleIds, type AnnouncementSummary } from "~/features/announcements/announcements.server";
import { m } from "~/paraglide/messages";
import { requireStaff } from "~/routes/staff-guard.server";
import { defaultLanguage } from "~/utils/language.server";
import { log } from "~/utils/log.server";
import { allows } from "~/utils/roles";
import { placesOf, viewerZone } from "./admin-announcements.server";
import type { Route } from "./+types/_site.admin.announcements._index";

export async function loader({ request, context }: Route.LoaderArgs) {
  const viewer = await requireStaff(request, context, "announcements");
  const app = context.get(appContext);
  const now = new Date();
  const mayChooseMentions = allows(viewer.role, "announcements.settings");
  const base = {
    announcements: [] as AnnouncementSummary[],
    now: now.toISOString(),
    timeZone: viewerZone(request),
    configured: placesOf(app),
    mentions: null as { roles: { id: string; name: string; chosen: boolean }[]; error: boolean } | null,
    error: null as string | null,
  };
  try {
    const announcements = await listAnnouncements(app.db, { now, language: app.language, defaultLanguage: defaultLanguage(), siteUrl: (id) => href("/news/:id", { id }) });
    let mentions = base.mentions;
    if (mayChooseMentions && app.discord && base.configured.includes("discord")) {
      const [chosen, roles] = await Promise.all([getMentionRoleIds(app.db), app.discord.guildRoles().catch(() => null)]);
      mentions = { roles: (roles ?? []).map((role) => ({ ...role, chosen: chosen.includes(role.id) })), error: roles === null };
    }
    return { ...base, announcements, mentions };
  } catch (error) {
    log.error("failed to load the announcements", { error });
    return data({ ...base, error: m.ann_load_failed() }, { status: 503 });
  }
}

export async function action({ request, context }: Route.ActionArgs) {
  const viewer = await requireStaff(request, context, "announcements.settings");
  const app = context.get(appContext);
  const form = await request.formData().catch(() => null);
  if (!form || form.get("intent") !== "mentions") return data({ error: m.unknown_action() }, { status: 400 });
  if (!app.discord) return data({ error: m.ann_place_not_set_up() }, { status: 409 });
  const roles = await app.discord.guildRoles().catch(() => null);
  if (!roles) return data({ error: m.ann_mentions_unreadable() }, { status: 503 });
  const ids = form.getAll("role").filter((id): id is string => typeof id === "string");
  const chosen = roles.filter((role) => ids.includes(role.id));
  if (chosen.length !== ids.length) return data({ error: m.ann_role_unknown() }, { status: 400 });
  await setMentionRoleIds(app.db, chosen.map((role) => role.id), chosen.map((role) => role.name), viewer);
  return { ok: true as const, message: m.ann_mentions_saved() };
}

export function meta() {
  return [{ title: m.ann_page_title() }];
}

export default function AnnouncementsPage({ loaderData, actionData }: Route.ComponentProps) {
  const { announcements, now, timeZone, error, mentions } = loaderData;
  return (
    <div className="space-y-6">
      <div className="flex flex-wrap items-end justify-between gap-4">
        <div>
          <h1 className="font-display text-4xl text-mist-100">{m.ann_heading()}</h1>
          <p className="mt-2 max-w-2xl text-mist-300">{m.ann_intro()}</p>
        </div>
        <Button asChild variant="gold">
          <Link to={href("/admin/announcements/new")}>
            <Icon node={Plus} className="size-4" />
            {m.ann_new()}
          </Link>
        </Button>
      </div>
      {error ? <ErrorAlert>{error}</ErrorAlert> : null}
      {actionData && "error" in actionData && actionData.error ? <ErrorAlert>{actionData.error}</ErrorAlert> : null}
      {actionData && "message" in actionData && actionData.message ? <SuccessAlert>{actionData.message}</SuccessAlert> : null}
      {announcements.length === 0 ? (
        <EmptyState title={m.ann_empty_title()} description={m.ann_empty_text()} />
      ) : (
        <ul className="space-y-3">
          {announcements.map((announcement) => (
            <li key={announcement.id}>
              <Card className={`p-5 ${announcement.deleted ? "opacity-60" : ""}`}>
                <div className="flex flex-wrap items-center gap-3">
                  <Link to={href("/admin/announcements/:id", { id: announcement.id })} className="font-display text-xl text-mist-100 hover:text-ember-300">
                    {announcement.title}
                  </Link>
                  {announcement.audience === "members" ? <Badge tone="gold">{m.ann_members_only()}</Badge> : null}
                  {announcement.deleted ? <Badge tone="muted">{m.ann_deleted()}</Badge> : null}
                </div>
                <p className="mt-1 text-sm text-mist-400">{publishedWhen(announcement.publishAt, now, timeZone)}</p>
                <div className="mt-3">
                  <PlaceBadges places={announcement.places} />
                </div>
              </Card>
            </li>
          ))}
        </ul>
      )}
      {mentions ? (
        <Card className="space-y-3 p-5">
          <h2 className="font-display text-xl text-mist-100">{m.ann_mentions_heading()}</h2>
          <p className="text-sm text-mist-300">{m.ann_mentions_intro()}</p>
          {mentions.error ? (
            <p className="text-sm text-red-300">{m.ann_mentions_unreadable()}</p>
          ) : (
            <Form method="post" className="space-y-3">
              <input type="hidden" name="intent" value="mentions" />
              <div className="flex flex-wrap gap-x-5 gap-y-2">
                {mentions.roles.map((role) => (
                  <label key={role.id} className="flex items-center gap-2 text-sm text-mist-100">
                    <input type="checkbox" name="role" value={role.id} defaultChecked={role.chosen} className="size-4 accent-ember-400" />@{role.name}
                  </label>
                ))}
              </div>
              <Button type="submit" size="sm">
                {m.ann_mentions_save()}
              </Button>
            </Form>
          )}
        </Card>
      ) : null}
    </div>
  );
}
