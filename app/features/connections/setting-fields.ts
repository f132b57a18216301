/** The settings each section of the Connections page sets: each one of the environment's variables (utils/env.server). */
import type { Env } from "~/utils/env.server";

export const CONNECTION_AREAS = ["vrchat", "discord", "telegram", "sheets", "mail", "switches"] as const;
export type ConnectionArea = (typeof CONNECTION_AREAS)[number];

export type SettingName = keyof Env;

export interface SettingField {
  name: SettingName;
  /** A secret: sealed at rest, shown as 'set' and its last 4 characters. */
  secret?: boolean;
  /** A switch (true or false). */
  switch?: boolean;
}

/** What each section of the page sets, in its order. */
export const AREA_FIELDS: Record<ConnectionArea, SettingField[]> = {
  vrchat: [
    { name: "VRCHAT_USERNAME" },
    { name: "VRCHAT_PASSWORD", secret: true },
    { name: "VRCHAT_TOTP_SECRET", secret: true },
    { name: "VRCHAT_GROUP_ID" },
    { name: "VRCHAT_CONTACT" },
  ],
  discord: [
    { name: "DISCORD_BOT_TOKEN", secret: true },
    { name: "DISCORD_GUILD_ID" },
    { name: "DISCORD_REVIEW_CHANNEL_ID" },
    { name: "DISCORD_ANNOUNCE_CHANNEL_ID" },
    { name: "DISCORD_STAFF_CHANNEL_ID" },
    { name: "DISCORD_MEMBER_ROLE_ID" },
    { name: "DISCORD_PUBLIC_KEY" },
    { name: "DISCORD_CLIENT_ID" },
    { name: "DISCORD_CLIENT_SECRET", secret: true },
  ],
  telegram: [{ name: "TELEGRAM_BOT_TOKEN", secret: true }, { name: "TELEGRAM_CHAT_ID" }],
  sheets: [{ name: "GOOGLE_SERVICE_ACCOUNT_JSON", secret: true }, { name: "GOOGLE_SHEETS_ID" }],
  mail: [{ name: "SMTP_URL", secret: true }, { name: "MAIL_FROM" }],
  switches: [
    { name: "VRCHAT_MEMBERSHIP_ACTIONS", switch: true },
    { name: "VRCHAT_PUBLISH_EVENTS", switch: true },
    { name: "VRCHAT_OPEN_INSTANCES", switch: true },
    { name: "VRCHAT_READ_JOIN_REQUESTS", switch: true },
  ],
};

