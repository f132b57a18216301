import { Send, UserMinus } from "lucide";
import { Icon } from "~/components/ui/icon";
import { useId } from "react";
import { Form, useNavigation } from "react-router";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { Card } from "~/components/ui/card";
import { ConfirmDialog } from "~/components/ui/confirm-dialog";
import { fieldClass } from "~/components/ui/field";
import { STAFF_ROLES, type StaffRole } from "~/db/enums";
import { m } from "~/paraglide/messages";
import { roleName } from "~/utils/roles";

export interface TeamRow {
  id: string;
  username: string;
  email: string;
  role: StaffRole;
  twoFactorEnabled: boolean;
  lastSignInAt: string | null;
  discordUserId: string | null;
}

const when = (iso: string | null) => (iso ? `${iso.slice(0, 16).replace("T", " ")} UTC` : m.team_never());

function Hidden({ intent, id }: { intent: string; id?: string }) {
  return (
    <>
      <input type="hidden" name="intent" value={intent} />
      {id ? <input type="hidden" name="id" value={id} /> : null}
    </>
  );
}

function RoleSelect({ id, name = "role", defaultValue, label }: { id: string; name?: string; defaultValue?: StaffRole; label?: string }) {
  return (
    <select id={id} name={name} defaultValue={defaultValue ?? "reviewer"} className={fieldClass} aria-label={label}>
      {STAFF_ROLES.map((role) => (
        <option key={role} value={role}>{roleName(role)}</option>
      ))}
    </select>
  );
}

/** One member: role (changeable), two-factor, last sign-in, Discord account, removal. */
export function TeamMemberCard({ member, self, discordConfigured }: { member: TeamRow; self: boolean; discordConfigured: boolean }) {
  const roleId = useId();
  const discordId = useId();
  return (
    <Card className="space-y-3 p-4" data-testid="team-member">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="min-w-0">
          <p className="font-semibold break-words text-mist-100">
            {member.username}
            {self ? <span className="text-mist-400">{m.team_you()}</span> : null}
          </p>
          <p className="text-sm break-all text-mist-400">{member.email}</p>
          <p className="mt-1 text-xs text-mist-400">{m.team_last_sign_in({ when: when(member.lastSignInAt) })}</p>
        </div>
        <div className="flex flex-wrap items-center gap-2">
          <Badge tone="aurora">{roleName(member.role)}</Badge>
          <Badge tone={member.twoFactorEnabled ? "live" : "muted"}>{member.twoFactorEnabled ? m.team_2fa_on() : m.team_2fa_off()}</Badge>
        </div>
      </div>
      <div className="flex flex-wrap items-end gap-3">
        <Form method="post" className="flex flex-wrap items-end gap-2">
          <Hidden intent="change-role" id={member.id} />
          <div className="space-y-1">
            <label htmlFor={roleId} className="block text-sm font-semibold text-mist-100">{m.team_role()}</label>
            <RoleSelect id={roleId} defaultValue={member.role} />
          </div>
          <Button type="submit" size="sm" variant="outline">
            {m.team_change_role()}
            <span className="sr-only">{m.team_of_member({ name: member.username })}</span>
          </Button>
        </Form>
        {discordConfigured ? (
          <Form method="post" className="flex flex-wrap items-end gap-2">
            <Hidden intent="set-discord" id={member.id} />
            <div className="space-y-1">
              <label htmlFor={discordId} className="block text-sm font-semibold text-mist-100">{m.team_discord_id()}</label>
              <input id={discordId} name="discordUserId" defaultValue={member.discordUserId ?? ""} inputMode="numeric" autoComplete="off" className={fieldClass} placeholder={m.team_discord_empty()} />
            </div>
            <Button type="submit" size="sm" variant="outline">
              {m.team_save()}
              <span className="sr-only">{m.team_discord_of({ name: member.username })}</span>
            </Button>
          </Form>
        ) : null}
        <ConfirmDialog
          trigger={
            <Button type="button" size="sm" variant="danger">
              <Icon node={UserMinus} className="size-4" />
              {m.team_remove()}
              <span className="sr-only"> {member.username}</span>
            </Button>
          }
          title={m.team_remove_title({ name: member.username })}
          description={m.team_remove_text()}
          action={
            <Form method="post">
              <Hidden intent="remove" id={member.id} />
              <Button type="submit" variant="danger">{m.team_remove_name({ name: member.username })}</Button>
            </Form>
          }
        />
      </div>
    </Card>
  );
}

/** 'E-mail', 'Role', 'Send invite'. */
export function InviteForm({ error }: { error: string | null }) {
  const emailId = useId();
  const roleId = useId();
  const errorId = useId();
  const busy = useNavigation().state === "submitting";
  return (
    <Form method="post" className="flex flex-wrap items-end gap-3" aria-describedby={error ? errorId : undefined}>
      <Hidden intent="invite" />
      <div className="min-w-0 flex-1 basis-64 space-y-1">
        <label htmlFor={emailId} className="block text-sm font-semibold text-mist-100">{m.team_email()}</label>
        <input id={emailId} name="email" type="email" required autoComplete="off" className={fieldClass} aria-invalid={error ? true : undefined} />
      </div>
      <div className="space-y-1">
        <label htmlFor={roleId} className="block text-sm font-semibold text-mist-100">{m.team_role()}</label>
        <RoleSelect id={roleId} />
      </div>
      <Button type="submit" disabled={busy}>
        <Icon node={Send} className="size-4" />
        {m.team_send_invite()}
      </Button>
      {error ? <p id={errorId} role="alert" className="w-full text-sm text-red-300">{error}</p> : null}
    </Form>
  );
}

/** 'Require two-factor' per role. */
export function TwoFactorPolicyForm({ required }: { required: Record<StaffRole, boolean> }) {
  return (
    <Form method="post" className="space-y-3">
      <Hidden intent="require-two-factor" />
      <fieldset className="flex flex-wrap gap-x-6 gap-y-2">
        <legend className="mb-2 text-sm text-mist-300">{m.team_2fa_legend()}</legend>
        {STAFF_ROLES.map((role) => (
          <label key={role} className="inline-flex items-center gap-2 text-mist-100">
            <input type="checkbox" name="require" value={role} defaultChecked={required[role]} className="size-5 accent-ember-400" />
            {roleName(role)}
          </label>
        ))}
      </fieldset>
      <Button type="submit" size="sm" variant="outline">{m.team_2fa_save()}</Button>
    </Form>
  );
}

/**
 * Whether an event approval may invite a non-member into the VRChat group. Off by default: an invite
 * admits without the group's own review. `active`: decisions act in VRChat on this site at all.
 */
export function EventInvitesForm({ allowed, active }: { allowed: boolean; active: boolean }) {
  return (
    <Form method="post" className="space-y-3">
      <Hidden intent="event-invites" />
      <label className="flex items-start gap-2 text-mist-100">
        <input type="checkbox" name="allowed" value="on" defaultChecked={allowed} className="mt-1 size-5 shrink-0 accent-ember-400" />
        <span>
          {m.team_invites_label()}
          <span className="block text-sm text-mist-300">
            {m.team_invites_off()}
            {active ? null : m.team_invites_inactive()}
          </span>
        </span>
      </label>
      <Button type="submit" size="sm" variant="outline">{m.team_invites_save()}</Button>
    </Form>
  );
}

export function OpenInvitations({ invitations }: { invitations: { id: string; email: string; role: StaffRole; expiresAt: string }[] }) {
  if (invitations.length === 0) return <p className="text-sm text-mist-400">{m.team_no_invitation()}</p>;
  return (
    <ul className="space-y-2">
      {invitations.map((invitation) => (
        <li key={invitation.id} className="flex flex-wrap items-center justify-between gap-2 rounded-lg border border-aurora-400/15 px-3 py-2">
          <span className="min-w-0 break-all text-mist-100">
            {invitation.email} <span className="text-mist-400">· {roleName(invitation.role)} · {m.team_until({ when: when(invitation.expiresAt) })}</span>
          </span>
          <Form method="post">
            <Hidden intent="withdraw-invite" id={invitation.id} />
            <Button type="submit" size="sm" variant="ghost">
              {m.team_withdraw()}
              <span className="sr-only">{m.team_invitation_of({ email: invitation.email })}</span>
            </Button>
          </Form>
        </li>
      ))}
    </ul>
  );
}

export function TeamHistory({ entries }: { entries: { id: string; actorName: string; change: string; createdAt: string }[] }) {
  if (entries.length === 0) return <p className="text-sm text-mist-400">{m.team_nothing_changed()}</p>;
  return (
    <ol className="space-y-1 text-sm" aria-label={m.team_history()}>
      {entries.map((entry) => (
        <li key={entry.id} className="text-mist-300">
          <span className="text-mist-400">{when(entry.createdAt)}</span> · <span className="font-semibold text-mist-100">{entry.actorName}</span> {entry.change}
        </li>
      ))}
    </ol>
  );
}
