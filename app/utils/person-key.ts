/**
 * Who a person's file is about, as the key in its address (/admin/people/KEY): their VRChat account
 * (`vrchat-usr_…`), else their Discord account (`discord-…`), else the one application that names
 * neither (`application-…`). Read by the browser too: a card builds its link without a database.
 */
import { VRCHAT_USER_ID, vrchatUserIdFrom, vrchatWebsiteUrl } from "~/utils/vrchat-profile-link";

export type PersonKey =
  | { kind: "vrchat"; id: string }
  | { kind: "discord"; id: string }
  | { kind: "application"; id: string };

const SNOWFLAKE = /^\d{15,22}$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export function formatPersonKey(key: PersonKey): string {
  return `${key.kind}-${key.id}`;
}

/** A key from an address; null for anything else. */
export function parsePersonKey(text: string): PersonKey | null {
  const dash = text.indexOf("-");
  if (dash < 0) return null;
  const kind = text.slice(0, dash);
  const id = text.slice(dash + 1);
  if (kind === "vrchat" && VRCHAT_USER_ID.test(id)) return { kind, id };
  if (kind === "discord" && SNOWFLAKE.test(id)) return { kind, id };
  if (kind === "application" && UUID.test(id)) return { kind, id };
  return null;
}

/** The key of whoever an application, join request or ban is about, by the accounts linked to it. */
export function personKeyOf(item: { vrchatUserId?: string | null; discordUserId?: string | null; applicationId?: string | null }): string | null {
  if (item.vrchatUserId) return formatPersonKey({ kind: "vrchat", id: item.vrchatUserId });
  if (item.discordUserId) return formatPersonKey({ kind: "discord", id: item.discordUserId });
  if (item.applicationId) return formatPersonKey({ kind: "application", id: item.applicationId });
  return null;
}

export function personPath(item: Parameters<typeof personKeyOf>[0]): string | null {
  const key = personKeyOf(item);
  return key ? `/admin/people/${key}` : null;
}

/**
 * The VRChat account a search or a merge names: a `usr_…` id or a profile link. A bare legacy id
 * (ten letters and digits) is taken only inside a link: typed alone it is more likely a name.
 */
export function namedVRChatUser(text: string): string | null {
  const id = vrchatUserIdFrom(text);
  return id && (id.startsWith("usr_") || vrchatWebsiteUrl(text)) ? id : null;
}
