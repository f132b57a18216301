/**
 * A Discord member's permissions, worked out as Discord does: the server's @everyone role and the
 * member's roles together; everything for the server's owner or an administrator; in a channel, the
 * channel's overwrites for @everyone, then for the member's roles, then for the member.
 * https://discord.com/developers/docs/topics/permissions#permission-overwrites
 */
export const DISCORD_PERMISSIONS = {
  BAN_MEMBERS: 1n << 2n,
  ADMINISTRATOR: 1n << 3n,
  VIEW_AUDIT_LOG: 1n << 7n,
  VIEW_CHANNEL: 1n << 10n,
  SEND_MESSAGES: 1n << 11n,
  EMBED_LINKS: 1n << 14n,
  ATTACH_FILES: 1n << 15n,
  MANAGE_ROLES: 1n << 28n,
  MANAGE_EVENTS: 1n << 33n,
} as const;
export type DiscordPermission = keyof typeof DISCORD_PERMISSIONS;

const ALL = (1n << 64n) - 1n;

export interface DiscordRoleFacts {
  id: string;
  name: string;
  position: number;
  permissions: string;
  managed?: boolean;
}

export interface DiscordOverwrite {
  id: string;
  /** 0 a role, 1 a member. */
  type: number;
  allow: string;
  deny: string;
}

export interface MemberFacts {
  userId: string;
  roleIds: string[];
  guildId: string;
  ownerId: string | null;
}

export function serverPermissions(member: MemberFacts, roles: DiscordRoleFacts[]): bigint {
  if (member.ownerId === member.userId) return ALL;
  const everyone = roles.find((role) => role.id === member.guildId);
  let permissions = BigInt(everyone?.permissions ?? "0");
  for (const role of roles) if (member.roleIds.includes(role.id)) permissions |= BigInt(role.permissions);
  return permissions & DISCORD_PERMISSIONS.ADMINISTRATOR ? ALL : permissions;
}

export function channelPermissions(member: MemberFacts, roles: DiscordRoleFacts[], overwrites: DiscordOverwrite[]): bigint {
  let permissions = serverPermissions(member, roles);
  if (permissions === ALL) return ALL;
  const apply = (allow: bigint, deny: bigint) => {
    permissions = (permissions & ~deny) | allow;
  };
  const everyone = overwrites.find((overwrite) => overwrite.id === member.guildId);
  if (everyone) apply(BigInt(everyone.allow), BigInt(everyone.deny));
  let allow = 0n;
  let deny = 0n;
  for (const overwrite of overwrites) {
    if (overwrite.type === 0 && member.roleIds.includes(overwrite.id)) {
      allow |= BigInt(overwrite.allow);
      deny |= BigInt(overwrite.deny);
    }
  }
  apply(allow, deny);
  const own = overwrites.find((overwrite) => overwrite.type === 1 && overwrite.id === member.userId);
  if (own) apply(BigInt(own.allow), BigInt(own.deny));
  return permissions;
}

export const has = (permissions: bigint, ...wanted: DiscordPermission[]) => wanted.every((name) => (permissions & DISCORD_PERMISSIONS[name]) !== 0n);

/** The bot's highest role's position: it may give only roles below it. */
export function highestPosition(member: MemberFacts, roles: DiscordRoleFacts[]): number {
  return Math.max(0, ...roles.filter((role) => member.roleIds.includes(role.id)).map((role) => role.position));
}
