import { data, href } from "react-router";
import { z } from "zod";
import { ErrorAlert, Notice } from "~/components/ui/alert";
import { Card } from "~/components/ui/card";
import { appContext } from "~/context";
import { STAFF_ROLES } from "~/db/enums";
import { EventInvitesForm, InviteForm, OpenInvitations, TeamHistory, TeamMemberCard, TwoFactorPolicyForm } from "~/features/accounts/team-page";
import { changeRole, INVITATION_DAYS, inviteMember, listOpenInvitations, listRolePolicies, listTeam, listTeamHistory, removeMember, setMemberDiscord, setTwoFactorRequired, withdrawInvitation } from "~/features/accounts/team.server";
import { getSiteSettings, setEventApprovalInvites } from "~/features/accounts/site-settings.server";
import { discordUserIdFrom } from "~/features/discord/discord-api.server";
import { requireStaff } from "~/routes/staff-guard.server";
import { log } from "~/utils/log.server";
import { roleName } from "~/utils/roles";
import { m } from "~/paraglide/messages";
import type { Route } from "./+types/_site.admin.team";

export async function loader({ request, context }: Route.LoaderArgs) {
  const viewer = await requireStaff(request, context, "team");
  const { db, discord, vrchat } = context.get(appContext);
  const now = new Date();
  const [team, invitations, policies, history, settings] = await Promise.all([listTeam(db), listOpenInvitations(db, now), listRolePolicies(db), listTeamHistory(db), getSiteSettings(db)]);
  return {
    settings,
    membershipActions: vrchat.membershipActions,
    viewerId: viewer.id,
    discordConfigured: discord !== null,
    team: team.map((member) => ({ ...member, lastSignInAt: member.lastSignInAt?.toISOString() ?? null })),
    invitations: invitations.map((invitation) => ({ ...invitation, expiresAt: invitation.expiresAt.toISOString() })),
    policies,
    history: history.map((entry) => ({ ...entry, createdAt: entry.createdAt.toISOString() })),
  };
}

const ActionSchema = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("invite"), email: z.string().max(320), role: z.string().max(40) }),
  z.object({ intent: z.literal("withdraw-invite"), id: z.string().max(100) }),
  z.object({ intent: z.literal("change-role"), id: z.string().max(100), role: z.string().max(40) }),
  z.object({ intent: z.literal("remove"), id: z.string().max(100) }),
  z.object({ intent: z.literal("set-discord"), id: z.string().max(100), discordUserId: z.string().max(100) }),
  z.object({ intent: z.literal("require-two-factor") }),
  z.object({ intent: z.literal("event-invites"), allowed: z.literal("on").optional() }),
]);

type ActionResult = { ok: true; message: string; link?: string } | { ok?: false; error: string; intent?: string };

export async function action({ request, context }: Route.ActionArgs) {
  const viewer = await requireStaff(request, context, "team");
  const { db, discord, mail, mailTransport, config } = context.get(appContext);
  const form = await request.formData().catch(() => null);
  const parsed = ActionSchema.safeParse(form ? Object.fromEntries(form) : {});
  if (!parsed.success) return data<ActionResult>({ error: m.teamr_incomplete() }, { status: 400 });
  const change = parsed.data;
  const actor = { id: viewer.id, username: viewer.username };
  const now = new Date();
  try {
    switch (change.intent) {
      case "invite": {
        const invited = await inviteMember(db, { email: change.email, role: change.role }, actor, now);
        if (!invited.ok) return data<ActionResult>({ error: invited.message, intent: "invite" }, { status: 400 });
        const link = `${config.PUBLIC_URL}${href("/admin/join/:token", { token: invited.token })}`;
        if (mailTransport === "log") {
          // No mail leaves this site: the owner hands the link over themselves, and sees it this once.
          return { ok: true, message: m.team_invitation_made({ email: invited.email, days: INVITATION_DAYS }), link } satisfies ActionResult;
        }
        // In the inviter's language (theirs for the Sanctum).
        await mail.send({
          to: invited.email,
          subject: m.mail_invite_subject(),
          text: m.mail_invite_text({ inviter: viewer.username, role: roleName(invited.role), days: INVITATION_DAYS, link }),
        });
        return { ok: true, message: m.team_invitation_sent({ email: invited.email }) } satisfies ActionResult;
      }
      case "withdraw-invite":
        if (!(await withdrawInvitation(db, change.id, actor, now))) return data<ActionResult>({ error: m.teamr_invitation_closed() }, { status: 404 });
        return { ok: true, message: m.teamr_invitation_withdrawn() } satisfies ActionResult;
      case "change-role": {
        const changed = await changeRole(db, change.id, change.role, actor);
        if (!changed.ok) return data<ActionResult>({ error: changed.message }, { status: changed.status });
        return { ok: true, message: m.teamr_role_changed() } satisfies ActionResult;
      }
      case "remove": {
        const removed = await removeMember(db, change.id, actor);
        if (!removed.ok) return data<ActionResult>({ error: removed.message }, { status: removed.status });
        return { ok: true, message: m.teamr_removed() } satisfies ActionResult;
      }
      case "set-discord": {
        if (!change.discordUserId.trim()) {
          const cleared = await setMemberDiscord(db, change.id, null, actor);
          return cleared.ok ? ({ ok: true, message: m.teamr_discord_unlinked() } satisfies ActionResult) : data<ActionResult>({ error: cleared.message }, { status: cleared.status });
        }
        if (!discord) return data<ActionResult>({ error: m.teamr_no_bot() }, { status: 409 });
        const userId = discordUserIdFrom(change.discordUserId);
        if (!userId) return data<ActionResult>({ error: m.team_discord_id_shape() }, { status: 400 });
        const member = await discord.describeMember(userId);
        if (!member) return data<ActionResult>({ error: m.teamr_no_member() }, { status: 404 });
        const linked = await setMemberDiscord(db, change.id, { userId, name: member.displayName }, actor);
        if (!linked.ok) return data<ActionResult>({ error: linked.message }, { status: linked.status });
        return { ok: true, message: m.teamr_linked({ name: member.displayName }) } satisfies ActionResult;
      }
      case "event-invites":
        await setEventApprovalInvites(db, change.allowed === "on", actor);
        return { ok: true, message: change.allowed === "on" ? m.teamr_invites_on() : m.teamr_invites_off() } satisfies ActionResult;
      case "require-two-factor": {
        const chosen = new Set(form!.getAll("require").map(String));
        await setTwoFactorRequired(db, Object.fromEntries(STAFF_ROLES.map((role) => [role, chosen.has(role)])) as Record<(typeof STAFF_ROLES)[number], boolean>, actor);
        return { ok: true, message: m.teamr_2fa_saved() } satisfies ActionResult;
      }
    }
  } catch (error) {
    log.error("failed to change the team", { error, intent: change.intent });
    return data<ActionResult>({ error: m.teamr_failed() }, { status: 503 });
  }
}

export function meta() {
  return [{ title: m.teamr_title() }];
}

export default function Team({ loaderData, actionData }: Route.ComponentProps) {
  const { team, invitations, policies, history, viewerId, discordConfigured, settings, membershipActions } = loaderData;
  const result = actionData as ActionResult | undefined;
  const error = result && !result.ok ? result : null;
  return (
    <div className="space-y-8">
      <h1 className="font-display text-4xl text-mist-100">{m.teamr_heading()}</h1>
      {result?.ok ? (
        <Notice>
          <span role="status">{result.message}</span>
          {result.link ? (
            <input readOnly value={result.link} aria-label={m.teamr_invitation_link()} className="mt-2 block w-full rounded border border-aurora-400/30 bg-night-950 px-2 py-1 font-mono text-sm text-mist-100" onFocus={(event) => event.currentTarget.select()} />
          ) : null}
        </Notice>
      ) : null}
      {error && error.intent !== "invite" ? <ErrorAlert>{error.error}</ErrorAlert> : null}
      <section aria-labelledby="invite-heading" className="space-y-3">
        <h2 id="invite-heading" className="font-display text-2xl text-mist-100">{m.teamr_invite()}</h2>
        <Card className="space-y-4 p-4">
          <InviteForm error={error?.intent === "invite" ? error.error : null} />
          <OpenInvitations invitations={invitations} />
        </Card>
      </section>
      <section aria-labelledby="members-heading" className="space-y-3">
        <h2 id="members-heading" className="font-display text-2xl text-mist-100">{m.teamr_members()}</h2>
        <ul className="space-y-3">
          {team.map((member) => (
            <li key={member.id}>
              <TeamMemberCard member={member} self={member.id === viewerId} discordConfigured={discordConfigured} />
            </li>
          ))}
        </ul>
      </section>
      <section aria-labelledby="security-heading" className="space-y-3">
        <h2 id="security-heading" className="font-display text-2xl text-mist-100">{m.teamr_require_2fa()}</h2>
        <Card className="p-4">
          <TwoFactorPolicyForm required={policies} />
        </Card>
      </section>
      <section aria-labelledby="vrchat-invites-heading" className="space-y-3">
        <h2 id="vrchat-invites-heading" className="font-display text-2xl text-mist-100">{m.teamr_invites_heading()}</h2>
        <Card className="p-4">
          <EventInvitesForm allowed={settings.eventApprovalInvites} active={membershipActions} />
        </Card>
      </section>
      <section aria-labelledby="history-heading" className="space-y-3">
        <h2 id="history-heading" className="font-display text-2xl text-mist-100">{m.team_history()}</h2>
        <TeamHistory entries={history} />
      </section>
    </div>
  );
}
