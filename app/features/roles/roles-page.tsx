/**
 * The role bridge's page: both places' roles (what cannot be linked, and why), the links with their
 * state, dry run and fill's progress, and the owner's form for a new link.
 */
import { useId } from "react";
import { useFetcher } from "react-router";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { Card } from "~/components/ui/card";
import { ConfirmDialog } from "~/components/ui/confirm-dialog";
import { EmptyState } from "~/components/ui/empty-state";
import { fieldClass } from "~/components/ui/field";
import { useOutcomeToast } from "~/components/ui/use-outcome-toast";
import { ROLE_LINK_DIRECTIONS, type RoleLinkDirection, type RoleLinkState } from "~/db/enums";
import { m } from "~/paraglide/messages";
import { formatCount } from "~/utils/language";

export interface LinkableRole {
  id: string;
  name: string;
  givable: boolean;
  why: string | null;
}

export interface LinkView {
  id: string;
  vrchatRoleName: string;
  discordRoleName: string;
  direction: RoleLinkDirection;
  state: RoleLinkState;
  readError: string | null;
  fillTotal: number;
  progress: { sent: number; failed: number; waiting: number; lastError: string | null };
  dryRun: { counts: { vrchatGain: number; vrchatLose: number; discordGain: number; discordLose: number; pairs: number }; samples: Record<"vrchatGain" | "vrchatLose" | "discordGain" | "discordLose", string[]> } | null;
}

const DIRECTION: Record<RoleLinkDirection, () => string> = { to_discord: m.rb_dir_to_discord, to_vrchat: m.rb_dir_to_vrchat, both: m.rb_dir_both };
const ARROW: Record<RoleLinkDirection, string> = { to_discord: "→", to_vrchat: "←", both: "⇄" };

type Result = { ok?: boolean; error?: string; message?: string };

function RoleColumn({ title, roles }: { title: string; roles: LinkableRole[] }) {
  return (
    <Card className="p-4">
      <h2 className="font-display text-xl text-mist-100">{title}</h2>
      <ul className="mt-2 space-y-1 text-sm">
        {roles.map((role) => (
          <li key={role.id} className={role.givable ? "text-mist-100" : "text-mist-400"}>
            {role.name}
            {role.givable ? null : <span className="block text-xs">{m.rb_cannot({ why: role.why ?? "" })}</span>}
          </li>
        ))}
      </ul>
    </Card>
  );
}

export function RolesOverview({ vrchat, discord }: { vrchat: LinkableRole[]; discord: LinkableRole[] }) {
  return (
    <div className="grid gap-4 md:grid-cols-2">
      <RoleColumn title={m.rb_vrchat_roles()} roles={vrchat} />
      <RoleColumn title={m.rb_discord_roles()} roles={discord} />
    </div>
  );
}

export function NewLinkForm({ vrchat, discord }: { vrchat: LinkableRole[]; discord: LinkableRole[] }) {
  const fetcher = useFetcher<Result>();
  useOutcomeToast(fetcher);
  const id = useId();
  const select = (name: string, label: string, roles: LinkableRole[]) => (
    <div className="space-y-1">
      <label htmlFor={`${id}-${name}`} className="block text-sm font-semibold text-mist-100">
        {label}
      </label>
      <select id={`${id}-${name}`} name={name} required className={fieldClass} defaultValue="">
        <option value="" disabled>
          —
        </option>
        {roles.map((role) => (
          <option key={role.id} value={role.id} disabled={!role.givable}>
            {role.name}
          </option>
        ))}
      </select>
    </div>
  );
  return (
    <Card className="p-5">
      <h2 className="font-display text-2xl text-mist-100">{m.rb_new()}</h2>
      {fetcher.data?.error ? (
        <p role="alert" className="mt-2 text-sm text-red-300">
          {fetcher.data.error}
        </p>
      ) : null}
      <fetcher.Form method="post" className="mt-3 grid gap-4 sm:grid-cols-3">
        <input type="hidden" name="intent" value="link" />
        {select("vrchatRoleId", m.rb_vrchat_role(), vrchat)}
        {select("discordRoleId", m.rb_discord_role(), discord)}
        <div className="space-y-1">
          <label htmlFor={`${id}-direction`} className="block text-sm font-semibold text-mist-100">
            {m.rb_direction()}
          </label>
          <select id={`${id}-direction`} name="direction" className={fieldClass} defaultValue="both">
            {ROLE_LINK_DIRECTIONS.map((direction) => (
              <option key={direction} value={direction}>
                {DIRECTION[direction]()}
              </option>
            ))}
          </select>
        </div>
        <div className="sm:col-span-3">
          <Button type="submit" size="sm" disabled={fetcher.state !== "idle"}>
            {m.rb_link()}
          </Button>
        </div>
      </fetcher.Form>
    </Card>
  );
}

function DryRunLines({ dryRun }: { dryRun: NonNullable<LinkView["dryRun"]> }) {
  const line = (text: string, names: string[]) => (
    <li>
      {text}
      {names.length > 0 ? <span className="text-mist-400"> ({names.join(", ")}{names.length >= 10 ? ", …" : ""})</span> : null}
    </li>
  );
  const { counts, samples } = dryRun;
  return (
    <div className="text-sm text-mist-200" data-testid="dry-run">
      <p>{m.rb_dry_run({ pairs: formatCount(counts.pairs) })}</p>
      <ul className="ml-4 list-disc">
        {line(m.rb_gain_vrchat({ count: formatCount(counts.vrchatGain) }), samples.vrchatGain)}
        {line(m.rb_lose_vrchat({ count: formatCount(counts.vrchatLose) }), samples.vrchatLose)}
        {line(m.rb_gain_discord({ count: formatCount(counts.discordGain) }), samples.discordGain)}
        {line(m.rb_lose_discord({ count: formatCount(counts.discordLose) }), samples.discordLose)}
      </ul>
    </div>
  );
}

export function LinkList({ links, mayChange }: { links: LinkView[]; mayChange: boolean }) {
  const fetcher = useFetcher<Result>();
  useOutcomeToast(fetcher);
  const send = (intent: string, id: string) => void fetcher.submit({ intent, id }, { method: "post" });
  const busy = fetcher.state !== "idle";
  if (links.length === 0) return <EmptyState title={m.rb_none()} />;
  return (
    <section aria-labelledby="links-heading" className="space-y-3">
      <h2 id="links-heading" className="font-display text-2xl text-mist-100">
        {m.rb_links()}
      </h2>
      <ul className="space-y-3">
        {links.map((link) => (
          <li key={link.id}>
            <Card className="space-y-2 p-4" data-testid="role-link" data-link-id={link.id}>
              <p className="font-semibold text-mist-100">
                {link.vrchatRoleName} (VRChat) {ARROW[link.direction]} {link.discordRoleName} (Discord) <Badge tone="muted">{DIRECTION[link.direction]()}</Badge>
              </p>
              <p className="text-sm text-mist-300" data-testid="link-state">
                {link.state === "reading"
                  ? m.rb_state_reading()
                  : link.state === "ready"
                    ? m.rb_state_ready()
                    : link.state === "filling"
                      ? m.rb_state_filling({ sent: formatCount(link.progress.sent), total: formatCount(link.fillTotal) })
                      : m.rb_state_active()}
              </p>
              {link.readError ? <p className="text-sm text-red-300">{m.rb_read_error({ error: link.readError })}</p> : null}
              {link.progress.failed > 0 ? <p className="text-sm text-red-300">{m.rb_failed({ count: formatCount(link.progress.failed), error: link.progress.lastError ?? "" })}</p> : null}
              {link.dryRun ? <DryRunLines dryRun={link.dryRun} /> : null}
              {mayChange ? (
                <div className="flex flex-wrap gap-2">
                  {link.state === "ready" ? (
                    <Button type="button" size="sm" disabled={busy} onClick={() => send("fill", link.id)}>
                      {m.rb_start()}
                    </Button>
                  ) : null}
                  <ConfirmDialog
                    trigger={
                      <Button type="button" size="sm" variant="outline" disabled={busy}>
                        {m.rb_remove()}
                      </Button>
                    }
                    title={m.rb_remove()}
                    description={m.rb_remove_text()}
                    action={
                      <Button type="button" variant="danger" onClick={() => send("remove", link.id)}>
                        {m.rb_remove()}
                      </Button>
                    }
                  />
                </div>
              ) : null}
            </Card>
          </li>
        ))}
      </ul>
    </section>
  );
}
