import { data } from "react-router";
import { lastListRead } from "~/features/vrchat/vrchat-list-reads.server";
import { UnreadableEntries } from "~/features/vrchat/unreadable-entries";
import { z } from "zod";
import { ErrorAlert } from "~/components/ui/alert";
import { appContext } from "~/context";
import { getSiteSettings, setRejectBanned } from "~/features/accounts/site-settings.server";
import { BanForm, BanList, BANS_INTRO, BAN_TEXTS, RejectBannedSetting } from "~/features/bans/bans-page";
import { listBans, type Ban } from "~/features/bans/bans.server";
import { discordUserIdFrom } from "~/features/discord/discord-api.server";
import { listJobsFor } from "~/features/notifications/outbox.server";
import { userIdFrom } from "~/features/vrchat/vrchat-membership.server";
import { banPerson, unbanPerson } from "~/flows/bans.server";
import { decideServices, type Decider } from "~/flows/decide.server";
import { requireStaff } from "~/routes/staff-guard.server";
import { log } from "~/utils/log.server";
import { allows } from "~/utils/roles";
import { m } from "~/paraglide/messages";
import type { Route } from "./+types/_site.admin.bans";

export async function loader({ request, context }: Route.LoaderArgs) {
  const viewer = await requireStaff(request, context, "sanctum");
  const { db } = context.get(appContext);
  const base = { mayBan: allows(viewer.role, "bans"), files: allows(viewer.role, "people"), mayChoose: allows(viewer.role, "bans.settings"), rejectBanned: false, bans: [] as Ban[], jobs: {} as Record<string, { target: string; status: string; text: string }[]>, unreadable: 0, error: null as string | null };
  try {
    const [bans, settings, read] = await Promise.all([listBans(db, new Date()), getSiteSettings(db), lastListRead(db, "bans")]);
    const jobs = await listJobsFor(db, bans.map((ban) => ban.id), ["vrchat_ban", "discord_ban"]);
    const byBan: Record<string, { target: string; status: string; text: string }[]> = {};
    // VRChat's first, then Discord's, whatever order they were written in.
    for (const job of jobs.toSorted((a, b) => (a.target === b.target ? 0 : a.target === "vrchat_ban" ? -1 : 1))) {
      const text = job.status === "delivered" ? (job.result ?? m.bansr_done()) : job.status === "failed" ? m.bansr_failed({ reason: job.lastError ?? m.bansr_unknown() }) : BAN_TEXTS.waiting(job.target);
      (byBan[job.sourceId] ??= []).push({ target: job.target, status: job.status, text });
    }
    return { ...base, rejectBanned: settings.rejectBanned, bans, jobs: byBan, unreadable: read?.unreadable ?? 0 };
  } catch (error) {
    log.error("failed to load the bans", { error });
    return data({ ...base, error: m.bansr_load_failed() }, { status: 503 });
  }
}

const BanSchema = z.object({
  account: z.string().trim().max(500),
  discord: z.string().trim().max(100),
  reason: z.string().trim().min(1, { error: () => m.bansr_give_reason() }).max(1_000),
});

export async function action({ request, context }: Route.ActionArgs) {
  const viewer = await requireStaff(request, context, "bans");
  const app = context.get(appContext);
  const form = await request.formData().catch(() => null);
  if (!form) return data({ error: m.bansr_form_unreadable() }, { status: 400 });
  if (form.get("intent") === "reject-banned") {
    if (!allows(viewer.role, "bans.settings")) return data({ error: m.bans_owner_only() }, { status: 403 });
    const reject = form.get("rejectBanned") === "on";
    await setRejectBanned(app.db, reject, { id: viewer.id, username: viewer.username });
    return { ok: true as const, message: reject ? BAN_TEXTS.rejecting : BAN_TEXTS.flagging };
  }
  const decider: Decider = { id: viewer.id, username: viewer.username, via: "sanctum", role: viewer.role };
  const services = decideServices(app);
  const intent = form.get("intent");
  try {
    if (intent === "ban") {
      const parsed = BanSchema.safeParse({ account: form.get("account") ?? "", discord: form.get("discord") ?? "", reason: form.get("reason") ?? "" });
      if (!parsed.success) return data({ error: parsed.error.issues[0]!.message }, { status: 400 });
      const { account, discord, reason } = parsed.data;
      if (!account && !discord) return data({ error: BAN_TEXTS.nobody }, { status: 400 });
      const vrchatUserId = account ? userIdFrom(account) : null;
      if (account && !vrchatUserId) return data({ error: BAN_TEXTS.vrchatHint }, { status: 400 });
      const discordUserId = discord ? discordUserIdFrom(discord) : null;
      if (discord && !discordUserId) return data({ error: BAN_TEXTS.discordHint }, { status: 400 });
      let displayName = discordUserId ? m.bansr_discord_user({ id: discordUserId }) : "";
      if (vrchatUserId) {
        if (!app.vrchat.membership) return data({ error: m.bans_vrchat_off() }, { status: 409 });
        const user = await app.vrchat.membership.describeUser(vrchatUserId).catch(() => undefined);
        if (user === undefined) return data({ error: m.people_vrchat_down() }, { status: 503 });
        if (user === null) return data({ error: m.lk_vrchat_no_user() }, { status: 404 });
        displayName = user.displayName;
      } else if (discordUserId && app.discord) {
        const member = await app.discord.describeMember(discordUserId).catch(() => null);
        if (member) displayName = member.displayName;
      }
      const outcome = await banPerson(services, { vrchatUserId, discordUserId, displayName }, reason, decider);
      if (outcome.kind === "already") return data({ error: BAN_TEXTS.already(outcome.ban) }, { status: 409 });
      return { ok: true as const, message: BAN_TEXTS.banned(outcome.ban.displayName, outcome.rejected) };
    }
    if (intent === "unban") {
      const id = z.uuid().safeParse(form.get("id"));
      if (!id.success) return data({ error: BAN_TEXTS.notInForce }, { status: 400 });
      const lifted = await unbanPerson(services, id.data, decider);
      if (!lifted) return data({ error: BAN_TEXTS.notInForce }, { status: 409 });
      return { ok: true as const, message: m.bansr_no_longer({ name: lifted.displayName }) };
    }
  } catch (error) {
    log.error("failed to change a ban", { error });
    return data({ error: m.bansr_not_saved() }, { status: 503 });
  }
  return data({ error: m.unknown_action() }, { status: 400 });
}

export function meta() {
  return [{ title: m.bansr_title() }];
}

export default function BansPage({ loaderData }: Route.ComponentProps) {
  const { mayBan, mayChoose, rejectBanned, bans, jobs, error, files, unreadable } = loaderData;
  return (
    <div className="space-y-6">
      <div>
        <h1 className="font-display text-4xl text-mist-100">{m.bansr_heading()}</h1>
        <p className="mt-2 max-w-2xl text-mist-300">{BANS_INTRO()}</p>
      </div>
      {error ? <ErrorAlert>{error}</ErrorAlert> : null}
      <RejectBannedSetting rejectBanned={rejectBanned} mayChoose={mayChoose} />
      {mayBan ? <BanForm /> : <p className="text-sm text-mist-400">{m.bansr_who_bans()}</p>}
      <UnreadableEntries count={unreadable} />
      <BanList bans={bans} jobs={jobs} mayBan={mayBan} files={files} />
    </div>
  );
}
