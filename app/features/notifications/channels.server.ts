import { ConfigError, type Config } from "~/utils/env.server";
import { createDiscordChannel } from "./discord.server";
import { createGoogleSheetsChannel, parseServiceAccountKey, readServiceAccountKey } from "./google-sheets.server";
import type { NotificationChannel } from "./notification";
import { createTelegramChannel } from "./telegram.server";

/** The channels the configuration enables; each is off unless its settings are present. */
export async function buildNotificationChannels(config: Config): Promise<NotificationChannel[]> {
  const channels: NotificationChannel[] = [];
  const timeoutMs = config.NOTIFICATION_TIMEOUT_SECONDS * 1000;
  if (config.TELEGRAM_BOT_TOKEN && config.TELEGRAM_CHAT_ID) {
    channels.push(
      createTelegramChannel({
        botToken: config.TELEGRAM_BOT_TOKEN,
        chatId: config.TELEGRAM_CHAT_ID,
        apiUrl: config.TELEGRAM_API_URL,
        timeoutMs,
      }),
    );
  }
  const keyFile = config.GOOGLE_SERVICE_ACCOUNT_FILE;
  const keyJson = config.GOOGLE_SERVICE_ACCOUNT_JSON;
  if (config.GOOGLE_SHEETS_ID && (keyFile || keyJson)) {
    let serviceAccount;
    try {
      serviceAccount = keyFile ? await readServiceAccountKey(keyFile) : parseServiceAccountKey(keyJson!, "the saved service account key");
    } catch (error) {
      throw new ConfigError(
        `Invalid configuration:\n  ${keyFile ? "GOOGLE_SERVICE_ACCOUNT_FILE" : "GOOGLE_SERVICE_ACCOUNT_JSON"}: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
    channels.push(
      createGoogleSheetsChannel({
        spreadsheetId: config.GOOGLE_SHEETS_ID,
        serviceAccount,
        range: config.GOOGLE_SHEETS_RANGE,
        apiUrl: config.GOOGLE_SHEETS_API_URL,
        timeoutMs,
      }),
    );
  }
  if (config.DISCORD_WEBHOOK_URL) {
    channels.push(createDiscordChannel({ webhookUrl: config.DISCORD_WEBHOOK_URL, timeoutMs }));
  }
  return channels;
}
