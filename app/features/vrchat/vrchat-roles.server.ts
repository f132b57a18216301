/**
 * The group roles Dwell makes for events with applications: the event's own role, found by a mark
 * in its description (so a role whose creation's answer was lost is found, not made twice), given
 * to an approved attendee, taken away, and deleted after the event. Writes are sent once and paced
 * with Dwell's other actions in VRChat.
 * Field facts come from the community's OpenAPI description of the VRChat API (vrchatapi/specification):
 * `GET`/`POST /groups/{groupId}/roles`, `DELETE /groups/{groupId}/roles/{groupRoleId}`, and
 * `PUT`/`DELETE /groups/{groupId}/members/{userId}/roles/{groupRoleId}`.
 */
import { z } from "zod";
import { outbox } from "~/db/schema";
import type { Database } from "~/db/db.server";
import { singleLine, truncate } from "~/utils/text";
import { VRCHAT_USER_ID } from "~/utils/vrchat-profile-link";
import { createPacer, type Pacer } from "./vrchat-actions.server";
import type { VRChatClient } from "./vrchat-client.server";
import { VRChatError } from "./vrchat-error";

/**
 * The longest role name Dwell makes. The API description sets none; names past this are cut (by
 * whole characters) so that a long event title never gets the role refused.
 */
export const ROLE_NAME_MAX = 64;

/**
 * A role's id as VRChat gives it: GroupRoleID sets no pattern (its example starts with `grol_`, but an
 * id without the prefix, or with a space or a slash in it, is as valid), so any id of printable
 * characters is taken as it is, and encoded wherever it goes into a path.
 */
const ROLE_ID = /^\P{Cc}{1,200}$/u;
const RoleSchema = z.object({ id: z.string().nullish(), name: z.string().nullish(), description: z.string().nullish() });
const RolesSchema = z.array(RoleSchema.nullable());

/** What marks a role as an event's in its description: the event's id, which no person writes. */
export const roleMark = (eventId: string) => `[dwell:${eventId}]`;

/** The role's name, from the event's title. */
export const roleNameFor = (title: string) => truncate(singleLine(title) || "Event attendees", ROLE_NAME_MAX);

export function createRoleKeeper({ client, groupId, pacer = createPacer(1_000, Date.now) }: { client: VRChatClient; groupId: string; pacer?: Pacer }) {
  const roles = `/groups/${groupId}/roles`;
  const memberRole = (userId: string, roleId: string) => `/groups/${groupId}/members/${encodeURIComponent(userId)}/roles/${encodeURIComponent(roleId)}`;

  /** The event's role, if the group has one marked as its (one call). */
  async function find(eventId: string): Promise<string | null> {
    const list = await pacer(() => client.get(roles, RolesSchema));
    const mark = roleMark(eventId);
    const found = list.find((role) => role?.id && ROLE_ID.test(role.id) && role.description?.includes(mark));
    return found?.id ?? null;
  }

  /**
   * Makes the event's role (one call, sent once): nobody may assign it to themselves, and it carries
   * no permission. An answer that cannot be read may still have made it: the next try looks for the
   * mark before making another (flows/event-role.server).
   */
  async function create(eventId: string, title: string, description: string): Promise<string> {
    const body = { name: roleNameFor(title), description: `${description} ${roleMark(eventId)}`.trim(), isSelfAssignable: false, permissions: [] };
    const answer = await pacer(() => client.sendFor("POST", roles, body, RoleSchema));
    if (!answer.id || !ROLE_ID.test(answer.id)) throw new VRChatError("VRChat answered without the role's id", null, null, "refused-shape");
    return answer.id;
  }

  async function give(userId: string, roleId: string): Promise<void> {
    await pacer(() => client.send("PUT", memberRole(userId, roleId), undefined));
  }

  /** Takes it away; one they no longer hold, or a role gone, is taken. */
  async function take(userId: string, roleId: string): Promise<void> {
    try {
      await pacer(() => client.send("DELETE", memberRole(userId, roleId), undefined));
    } catch (error) {
      if (error instanceof VRChatError && (error.status === 404 || error.status === 400)) return;
      throw error;
    }
  }

  /** Deletes the role; one VRChat no longer has is deleted. */
  async function remove(roleId: string): Promise<void> {
    try {
      await pacer(() => client.send("DELETE", `${roles}/${encodeURIComponent(roleId)}`, undefined));
    } catch (error) {
      if (error instanceof VRChatError && error.status === 404) return;
      throw error;
    }
  }

  return { find, create, give, take, remove };
}

export type RoleKeeper = ReturnType<typeof createRoleKeeper>;

/** A change of an attendee's event role, as an outbox job. */
export interface RoleAction {
  applicationKind: "event";
  applicationId: string;
  eventId: string;
  userId: string;
  action: "give" | "take";
  actor: { id: string; name: string };
  /** A non-member may be invited to the group (an allowed approval's first ask only). */
  mayInvite?: boolean;
}

export const RoleActionSchema = z.object({
  applicationKind: z.literal("event"),
  applicationId: z.uuid(),
  eventId: z.uuid(),
  userId: z.string().min(1).max(100),
  action: z.enum(["give", "take"]),
  actor: z.object({ id: z.string(), name: z.string() }),
  mayInvite: z.boolean().optional(),
});

/** Queues a change of an attendee's event role, in the transaction that caused it. */
export async function queueRoleAction(tx: Pick<Database, "insert">, action: RoleAction, at: Date) {
  await tx.insert(outbox).values({ target: "vrchat_event_role", payload: action, sourceId: action.applicationId, nextAttemptAt: at });
}

/** The role of an event being deleted: removed from VRChat after the event is gone (its holders lose it with it). */
export const RoleRemovalSchema = z.object({ action: z.literal("delete-role"), eventId: z.uuid(), roleId: z.string().regex(ROLE_ID) });
export type RoleRemoval = z.infer<typeof RoleRemovalSchema>;

export async function queueRoleRemoval(tx: Pick<Database, "insert">, removal: Omit<RoleRemoval, "action">, at: Date) {
  await tx.insert(outbox).values({ target: "vrchat_event_role", payload: { action: "delete-role", ...removal } satisfies RoleRemoval, nextAttemptAt: at });
}

/**
 * The group's roles by name, for staff choosing whom an announcement is meant for: read at most once
 * every few minutes (one call), whoever opens the form.
 */
export function createRoleList(client: VRChatClient, groupId: string, cacheMs = 5 * 60_000) {
  let cached: { at: number; roles: { id: string; name: string }[] } | null = null;
  return async (): Promise<{ id: string; name: string }[]> => {
    if (cached && Date.now() - cached.at < cacheMs) return cached.roles;
    const list = await client.get(`/groups/${groupId}/roles`, RolesSchema, undefined, { once: true });
    const roles = list.flatMap((role) => (role?.id && ROLE_ID.test(role.id) ? [{ id: role.id, name: role.name ?? role.id }] : []));
    cached = { at: Date.now(), roles };
    return roles;
  };
}

const LinkableRoleSchema = RoleSchema.extend({ isManagementRole: z.boolean().nullish(), order: z.number().nullish() });
const RoleHoldersSchema = z.array(z.object({ userId: z.string().nullish(), roleIds: z.array(z.string()).nullish() }).nullable());

/** A page of a role's holders (`GET /groups/{groupId}/members?roleId=…`, at most 100). */
export const HOLDERS_PAGE = 100;

/**
 * The group's roles as the role bridge shows them (one call; a management role is never given by
 * Dwell), and who holds one (its members, paged by VRChat's own `roleId` filter).
 */
export function createRoleReader(client: VRChatClient, groupId: string) {
  async function roles(): Promise<{ id: string; name: string; management: boolean }[]> {
    const list = await client.get(`/groups/${groupId}/roles`, z.array(LinkableRoleSchema.nullable()));
    return list.flatMap((role) => (role?.id && ROLE_ID.test(role.id) ? [{ id: role.id, name: role.name ?? role.id, management: role.isManagementRole === true }] : []));
  }

  /** Every holder of a role, up to `maxPages` pages; `complete` false when there were more. */
  async function holders(roleId: string, maxPages = 200): Promise<{ userIds: string[]; complete: boolean }> {
    const found = new Set<string>();
    for (let page = 0; page < maxPages; page += 1) {
      const members = await client.get(`/groups/${groupId}/members`, RoleHoldersSchema, { n: HOLDERS_PAGE, offset: page * HOLDERS_PAGE, roleId });
      for (const member of members) if (member?.userId && VRCHAT_USER_ID.test(member.userId)) found.add(member.userId);
      if (members.length < HOLDERS_PAGE) return { userIds: [...found], complete: true };
    }
    return { userIds: [...found], complete: false };
  }

  return { roles, holders };
}

export type RoleReader = ReturnType<typeof createRoleReader>;
