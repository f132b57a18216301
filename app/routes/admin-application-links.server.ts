/**
 * The review page's account intents: a staff member links (or unlinks) an applicant's VRChat or
 * Discord account from the card's panels. Parsed here, decided by flows/decide; part of the review
 * route's action (_site.admin.applications.tsx), kept apart to keep that module readable.
 */
import { data } from "react-router";
import { z } from "zod";
import type { DiscordBot } from "~/features/discord/discord-bot.server";
import { discordUserIdFrom } from "~/features/discord/discord-api.server";
import type { VRChatServices } from "~/features/vrchat/vrchat.server";
import { userIdFrom } from "~/features/vrchat/vrchat-membership.server";
import { linkDiscordAccount, linkVRChatAccount, type DecideServices, type Decider, type Review } from "~/flows/decide.server";
import { DISCORD_ACCOUNT_HINT, VRCHAT_ACCOUNT_HINT } from "~/utils/account-hints";
import { log } from "~/utils/log.server";
import { m } from "~/paraglide/messages";

const LinkSchema = z.object({ id: z.string().max(100), account: z.string().trim().max(300) });

export async function linkIntent(
  intent: "link-vrchat" | "unlink-vrchat" | "link-discord" | "unlink-discord",
  form: FormData | null,
  { services, vrchat, discord, found, decider }: { services: DecideServices; vrchat: VRChatServices; discord: DiscordBot | null; found: Review; decider: Decider },
) {
  if (intent === "link-vrchat" || intent === "unlink-vrchat") {
    const link = LinkSchema.safeParse({ id: form?.get("id"), account: form?.get("account") ?? "" });
    if (!link.success) return data({ error: m.apps_update_failed() }, { status: 400 });
    try {
      if (intent === "unlink-vrchat") {
        const unlinked = await linkVRChatAccount(services, link.data.id, null, decider, found.scope);
        if (unlinked.kind === "missing") return data({ error: m.apps_update_failed() }, { status: 404 });
        return { ok: true as const, message: m.lk_vrchat_unlinked() };
      }
      if (!vrchat.membership) return data({ error: m.lk_vrchat_off() }, { status: 409 });
      const userId = userIdFrom(link.data.account);
      if (!userId) return data({ error: VRCHAT_ACCOUNT_HINT }, { status: 400 });
      const linked = await linkVRChatAccount(services, link.data.id, userId, decider, found.scope);
      if (linked.kind === "unknown-account") return data({ error: m.lk_vrchat_no_user() }, { status: 404 });
      if (linked.kind !== "linked") return data({ error: m.apps_update_failed() }, { status: 404 });
      const name = linked.displayName;
      if (linked.confirmed) return { ok: true as const, message: linked.acting ? m.lk_vrchat_confirmed_acting({ name }) : m.lk_vrchat_confirmed({ name }) };
      return { ok: true as const, message: linked.acting ? m.lk_vrchat_linked_acting({ name }) : m.lk_vrchat_linked({ name }) };
    } catch (error) {
      log.warn("failed to link a VRChat account", { error: error instanceof Error ? error.message : String(error) });
      return data({ error: m.people_vrchat_down() }, { status: 503 });
    }
  }
  if (intent === "link-discord" || intent === "unlink-discord") {
    const link = LinkSchema.safeParse({ id: form?.get("id"), account: form?.get("account") ?? "" });
    if (!link.success) return data({ error: m.apps_update_failed() }, { status: 400 });
    try {
      if (intent === "unlink-discord") {
        const unlinked = await linkDiscordAccount(services, found, link.data.id, null, decider);
        if (unlinked.kind === "missing") return data({ error: m.apps_update_failed() }, { status: 404 });
        return { ok: true as const, message: m.lk_discord_unlinked() };
      }
      if (!discord) return data({ error: m.lk_discord_off() }, { status: 409 });
      const userId = discordUserIdFrom(link.data.account);
      if (!userId) return data({ error: DISCORD_ACCOUNT_HINT }, { status: 400 });
      const member = await discord.describeMember(userId);
      if (!member) return data({ error: m.lk_discord_no_member() }, { status: 404 });
      const linked = await linkDiscordAccount(services, found, link.data.id, { userId: member.id, displayName: member.displayName }, decider);
      if (linked.kind === "missing") return data({ error: m.apps_update_failed() }, { status: 404 });
      const name = member.displayName;
      return { ok: true as const, message: linked.kind === "linked" && linked.acting ? m.lk_discord_linked_acting({ name }) : m.lk_discord_linked({ name }) };
    } catch (error) {
      log.warn("failed to link a Discord account", { error: error instanceof Error ? error.message : String(error) });
      return data({ error: m.dl_discord_unreachable() }, { status: 503 });
    }
  }
  return data({ error: m.unknown_action() }, { status: 400 });
}
