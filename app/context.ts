import { createContext } from "react-router";
import type { Database } from "~/db/db.server";
import type { DiscordBot } from "~/features/discord/discord-bot.server";
import type { DiscordOAuth } from "~/features/discord/discord-oauth.server";
import type { NotificationTarget } from "~/features/notifications/notification";
import type { VRChatServices } from "~/features/vrchat/vrchat.server";
import type { Auth } from "~/utils/auth.server";
import type { Mailer } from "~/utils/email.server";
import type { Config } from "~/utils/env.server";

/** What every loader and action gets from the server: set once per request in server/app.ts. */
export interface AppContext {
  db: Database;
  config: Config;
  /** The requesting client's IP address (see TRUST_PROXY). */
  clientAddress: string;
  auth: Auth;
  /** How outgoing mail leaves: by SMTP, or written to the server log. */
  mailTransport: "smtp" | "log";
  /** Sends the site's mail (team invitations): never throws for the mail server's failure. */
  mail: Pick<Mailer, "send">;
  notifications: {
    /** The configured targets: one outbox job each per application. */
    targets: readonly NotificationTarget[];
    /** Ask the outbox worker to deliver soon. */
    wake(): void;
  };
  /** The group's live data (VRChat, or the demo group) and the calendar import. */
  vrchat: VRChatServices;
  /** The site's Discord bot, when DISCORD_BOT_TOKEN and DISCORD_GUILD_ID are set. */
  discord: DiscordBot | null;
  /** Discord's sign-in, for staff to link their own account (DISCORD_CLIENT_ID and DISCORD_CLIENT_SECRET). */
  discordOAuth: DiscordOAuth | null;
  /**
   * The connections' saved settings (features/connections): the server's environment they sit
   * beside (it wins), the key that seals their secrets, and `refresh`, which makes this process take
   * a saved change at once (the others take it within seconds).
   */
  settings: {
    source: Record<string, string | undefined>;
    key: Buffer;
    refresh(): Promise<void>;
  };
  /** The page's Content-Security-Policy nonce, for the scripts written into it (none in development). */
  cspNonce: string | undefined;
  /** The language this request is answered in (app/utils/language.ts). */
  language: string;
  /**
   * The page is rendered once for every visitor (server/page-cache.ts): what differs by visitor is
   * left to the cache to fill in (an application form's guards, by their marks).
   */
  sharedRender: boolean;
}

export const appContext = createContext<AppContext>();
