import { data } from "react-router";
import { z } from "zod";
import { ErrorAlert } from "~/components/ui/alert";
import { appContext } from "~/context";
import { provenOnOneSide } from "~/features/people/identities.server";
import { fillProgress, listLinks, removeLink, RoleLinkInputSchema } from "~/features/roles/role-links.server";
import { LinkList, NewLinkForm, RolesOverview, type LinkableRole, type LinkView } from "~/features/roles/roles-page";
import { createRoleLink, dryRun, linkableRoles, roleBridgeServices, startFill } from "~/flows/role-bridge.server";
import { requireStaff } from "~/routes/staff-guard.server";
import { failureText } from "~/utils/failure-text.server";
import { log } from "~/utils/log.server";
import { allows } from "~/utils/roles";
import { m } from "~/paraglide/messages";
import type { Route } from "./+types/_site.admin.roles";

const servicesOf = (context: Route.LoaderArgs["context"]) => {
  const app = context.get(appContext);
  return roleBridgeServices({ db: app.db, config: app.config, vrchat: app.vrchat, discord: app.discord, wake: () => app.notifications.wake() });
};

export async function loader({ request, context }: Route.LoaderArgs) {
  const viewer = await requireStaff(request, context, "roles");
  const services = servicesOf(context);
  const [links, oneSided] = await Promise.all([listLinks(services.db), provenOnOneSide(services.db)]);
  const progress = await fillProgress(services.db, links.map((link) => link.id));
  const views: LinkView[] = await Promise.all(
    links.map(async (link) => ({
      id: link.id,
      vrchatRoleName: link.vrchatRoleName,
      discordRoleName: link.discordRoleName,
      direction: link.direction,
      state: link.state,
      readError: link.readError,
      fillTotal: link.fillTotal,
      progress: progress.get(link.id) ?? { sent: 0, failed: 0, waiting: 0, lastError: null },
      dryRun: link.state === "ready" ? await dryRun(services.db, link) : null,
    })),
  );
  let roles: { vrchat: LinkableRole[]; discord: LinkableRole[] } = { vrchat: [], discord: [] };
  let rolesError: string | null = null;
  if (!services.vrchat || !services.discord) rolesError = m.rb_needs_both();
  else {
    try {
      roles = await linkableRoles(services);
    } catch (error) {
      log.warn("the roles could not be read for the role bridge", { error });
      rolesError = m.rb_unreadable({ error: failureText(error) });
    }
  }
  return { links: views, roles, rolesError, oneSided, pace: services.callsPerMinute, mayChange: allows(viewer.role, "roles.links") };
}

export async function action({ request, context }: Route.ActionArgs) {
  const viewer = await requireStaff(request, context, "roles.links");
  const services = servicesOf(context);
  const form = await request.formData().catch(() => null);
  if (!form) return data({ error: m.unknown_action() }, { status: 400 });
  const intent = form.get("intent");
  try {
    if (intent === "link") {
      const parsed = RoleLinkInputSchema.safeParse(Object.fromEntries(form));
      if (!parsed.success) return data({ error: m.rb_invalid() }, { status: 400 });
      const outcome = await createRoleLink(services, parsed.data, { name: viewer.username });
      if (outcome.kind === "refused") return data({ error: outcome.reason }, { status: 409 });
      return { ok: true as const, message: m.rb_linked() };
    }
    const id = z.uuid().safeParse(form.get("id"));
    if (!id.success) return data({ error: m.rb_missing() }, { status: 404 });
    if (intent === "fill") {
      const outcome = await startFill(services, id.data, { id: viewer.id, name: viewer.username });
      if (outcome.kind === "missing") return data({ error: m.rb_missing() }, { status: 404 });
      if (outcome.kind === "not-ready") return data({ error: m.rb_not_ready() }, { status: 409 });
      return { ok: true as const, message: m.rb_started({ count: outcome.total, pace: services.callsPerMinute }) };
    }
    if (intent === "remove") {
      if (!(await removeLink(services.db, id.data, viewer.username))) return data({ error: m.rb_missing() }, { status: 404 });
      return { ok: true as const, message: m.rb_removed() };
    }
  } catch (error) {
    log.error("the role bridge could not do what was asked", { error });
    return data({ error: m.rb_unreadable({ error: failureText(error) }) }, { status: 503 });
  }
  return data({ error: m.unknown_action() }, { status: 400 });
}

export function meta() {
  return [{ title: m.rb_title() }];
}

export default function RolesPage({ loaderData }: Route.ComponentProps) {
  const { links, roles, rolesError, oneSided, pace, mayChange } = loaderData;
  return (
    <div className="space-y-6">
      <div>
        <h1 className="font-display text-4xl text-mist-100">{m.rb_title()}</h1>
        <p className="mt-2 max-w-3xl text-mist-300">{m.rb_intro()}</p>
        <p className="mt-1 text-sm text-mist-400">{m.rb_pace({ pace })}</p>
      </div>
      {rolesError ? <ErrorAlert>{rolesError}</ErrorAlert> : <RolesOverview vrchat={roles.vrchat} discord={roles.discord} />}
      <p className="text-sm text-mist-300" data-testid="one-sided">
        {m.rb_one_sided({ vrchat: oneSided.vrchatOnly, discord: oneSided.discordOnly })}
      </p>
      {mayChange && !rolesError ? <NewLinkForm vrchat={roles.vrchat} discord={roles.discord} /> : null}
      {mayChange ? null : <p className="text-sm text-mist-400">{m.rb_owner_only()}</p>}
      <LinkList links={links} mayChange={mayChange} />
    </div>
  );
}
