import { describe, expect, it } from "vitest";
import { loadConfig } from "~/utils/env.server";
import { channelPermissions, DISCORD_PERMISSIONS, has, serverPermissions } from "./discord-permissions";
import { featureStates, type DiscordFacts, type VRChatFacts } from "./features";

const GUILD = "111111111111111111";
const BOT = "666666666666666666";
const roles = [
  { id: GUILD, name: "@everyone", position: 0, permissions: String(DISCORD_PERMISSIONS.VIEW_CHANNEL | DISCORD_PERMISSIONS.SEND_MESSAGES) },
  { id: "2", name: "Dweller", position: 2, permissions: "0" },
  { id: "3", name: "Dwell", position: 3, permissions: String(DISCORD_PERMISSIONS.MANAGE_ROLES | DISCORD_PERMISSIONS.BAN_MEMBERS) },
];
const bot = { userId: BOT, roleIds: ["3"], guildId: GUILD, ownerId: "999" };

describe("a Discord member's permissions", () => {
  it("adds the roles' permissions to @everyone's, and gives everything to an administrator or the owner", () => {
    const permissions = serverPermissions(bot, roles);
    expect(has(permissions, "MANAGE_ROLES", "BAN_MEMBERS", "SEND_MESSAGES")).toBe(true);
    expect(has(permissions, "VIEW_AUDIT_LOG")).toBe(false);
    expect(has(serverPermissions({ ...bot, ownerId: BOT }, roles), "VIEW_AUDIT_LOG")).toBe(true);
    expect(has(serverPermissions(bot, [...roles.slice(0, 2), { ...roles[2]!, permissions: String(DISCORD_PERMISSIONS.ADMINISTRATOR) }]), "MANAGE_EVENTS")).toBe(true);
  });

  it("applies a channel's overwrites: @everyone's, then the roles', then the member's own", () => {
    const denyEveryone = { id: GUILD, type: 0, allow: "0", deny: String(DISCORD_PERMISSIONS.SEND_MESSAGES) };
    expect(has(channelPermissions(bot, roles, [denyEveryone]), "SEND_MESSAGES")).toBe(false);
    const allowRole = { id: "3", type: 0, allow: String(DISCORD_PERMISSIONS.SEND_MESSAGES), deny: "0" };
    expect(has(channelPermissions(bot, roles, [denyEveryone, allowRole]), "SEND_MESSAGES")).toBe(true);
    const denyMember = { id: BOT, type: 1, allow: "0", deny: String(DISCORD_PERMISSIONS.SEND_MESSAGES) };
    expect(has(channelPermissions(bot, roles, [denyEveryone, allowRole, denyMember]), "SEND_MESSAGES")).toBe(false);
  });
});

describe("what works with the connections", () => {
  const config = loadConfig({
    VRCHAT_GROUP_ID: "grp_5f3c9a1e-2b4d-4c6e-8f70-1a2b3c4d5e6f",
    VRCHAT_USERNAME: "bot",
    VRCHAT_PASSWORD: "pw",
    VRCHAT_CONTACT: "admins@dwell.example",
    VRCHAT_MEMBERSHIP_ACTIONS: "true",
    DISCORD_BOT_TOKEN: "a-bot-token-that-is-long-enough",
    DISCORD_GUILD_ID: GUILD,
    DISCORD_MEMBER_ROLE_ID: "222222222222222222",
  });
  const vrchat = (permissions: string[]): VRChatFacts => ({ ok: true, botUserId: "usr_1", botName: "Dwell Bot", twoFactor: true, groups: [], group: { id: "grp", name: "The Dwellers" }, member: true, permissions });
  const line = (states: ReturnType<typeof featureStates>, key: string) => {
    const feature = states.find((one) => one.key === key)!;
    return feature.detail ? `${feature.label}: ${feature.detail}` : `${feature.label} (${feature.state})`;
  };

  it("names the VRChat permission a feature lacks, and says a switched-off feature is off", () => {
    const states = featureStates(config, { vrchat: vrchat(["group-invites-manage", "group-announcement-manage"]) });
    expect(line(states, "vrchat.bans")).toBe("Bans reach VRChat: needs Manage Group Bans");
    expect(line(states, "vrchat.decisions")).toBe("Decisions act in VRChat (works)");
    expect(line(states, "vrchat.calendar")).toBe("Events on VRChat's calendar: off (VRCHAT_PUBLISH_EVENTS)");
    expect(line(featureStates(config, { vrchat: vrchat(["*"]) }), "vrchat.bans")).toBe("Bans reach VRChat (works)");
    expect(line(featureStates(config, {}), "vrchat.bans")).toBe("Bans reach VRChat (unread)");
    expect(line(featureStates(config, { vrchat: { ...(vrchat([]) as Extract<VRChatFacts, { ok: true }>), member: false } }), "vrchat.live")).toBe("The live group on the site: the bot account is not a member of the group");
  });

  it("says when the bot's role is not above the member role it must give", () => {
    const discord = (botTop: number): DiscordFacts => ({
      ok: true,
      botId: BOT,
      botName: "Dwell",
      guilds: [{ id: GUILD, name: "The Dwellers" }],
      inGuild: true,
      permissions: String(DISCORD_PERMISSIONS.MANAGE_ROLES),
      channels: [],
      roles: [{ id: "222222222222222222", name: "Dweller", position: 2, managed: false }],
      botTop,
    });
    expect(line(featureStates(config, { discord: discord(3) }), "discord.member-role")).toBe("The member role given on approval (works)");
    expect(line(featureStates(config, { discord: discord(1) }), "discord.member-role")).toBe("The member role given on approval: the bot's role is not above 'Dweller': move it higher in Server Settings → Roles");
    expect(line(featureStates(config, { discord: discord(3) }), "discord.bans")).toBe("Bans reach Discord: needs Ban Members");
  });
});
