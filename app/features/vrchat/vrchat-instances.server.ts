/**
 * The group instances Dwell opens for events: `POST /instances` (a group instance of the event's
 * world, owned by the group), the look for one a lost answer made (`GET /groups/{groupId}/instances`,
 * then `GET /instances/{location}` of each candidate), its short link, and `DELETE /instances/{location}`
 * to close one. Writes are sent once and paced with Dwell's other actions in VRChat.
 *
 * Dwell only ever takes as an event's an instance it made for that event: one whose creation it
 * recorded before asking, read back with every fact Dwell set matching (the group as owner, the bot
 * as creator, the access type, the roles, the calendar entry, the closing time to the second). An
 * instance a member opened in the same world, or the group's standing hangout, never matches.
 * Field facts come from the community's OpenAPI description of the VRChat API (vrchatapi/specification).
 */
import { z } from "zod";
import type { InstanceAccess, InstanceRegion } from "~/db/enums";
import type { RequestedInstance } from "~/db/schema";
import { createPacer, type Pacer } from "./vrchat-actions.server";
import type { VRChatClient } from "./vrchat-client.server";
import { VRChatError } from "./vrchat-error";
import { instancePath, splitLocation } from "./vrchat-location";

export interface OpenedInstance {
  /** "wrld_…:12345~group(grp_…)~…": what VRChat names the instance by. */
  location: string;
  worldId: string;
  instanceId: string;
  /** Its short name (`vrch.at/…`), when VRChat gave one. */
  shortName: string | null;
}

export interface InstanceRequest {
  worldId: string;
  region: InstanceRegion;
  /** The group's members, anyone ('Group Public'), or only members holding `roleIds`. */
  access: InstanceAccess | "role";
  roleIds?: readonly string[];
  /** After this, nobody new may join (the event's end). */
  closedAt: Date;
  /** The event's entry on the group's VRChat calendar, when it has one. */
  calendarEntryId?: string | null;
}

/** What Dwell asks for, kept before the call: what a lost answer's instance is recognised by. */
export const requestedOf = (request: InstanceRequest): RequestedInstance => ({
  access: request.access,
  roleIds: [...(request.roleIds ?? [])],
  calendarEntryId: request.calendarEntryId ?? null,
  closedAt: request.closedAt.toISOString(),
});

const text = z.string().nullish();
/** An Instance (`POST /instances`, `GET /instances/{location}`): the ids, and the facts Dwell sets. */
const InstanceSchema = z.object({
  id: text,
  location: text,
  instanceId: text,
  worldId: text,
  shortName: text,
  ownerId: text,
  creatorId: text,
  type: text,
  groupAccessType: text,
  roleRestricted: z.boolean().nullish(),
  /** Not in the description's Instance; read when VRChat sends it, and then it must be exact. */
  roleIds: z.array(z.string()).nullish(),
  calendarEntryId: text,
  closedAt: text,
});
const GroupInstancesSchema = z.array(z.object({ location: text, world: z.object({ id: text }).nullish() }).nullable());
const ShortNameSchema = z.object({ shortName: text, secureName: text });

/** An instance's people, as its creator reads them (`users`: LimitedUserInstance, its id and name). */
const InstancePeopleSchema = z
  .object({
    n_users: z.number().int().min(0).optional(),
    userCount: z.number().int().min(0).optional(),
    users: z.array(z.object({ id: z.string().min(1), displayName: z.string() }).loose()).optional(),
  })
  .loose();

/** Candidates read back when looking for a lost answer's instance: the world's open group instances rarely number more. */
const MAX_READ_BACK = 5;

function opened(answer: z.infer<typeof InstanceSchema>, worldId: string): OpenedInstance {
  const location = answer.location ?? answer.id ?? (answer.instanceId ? `${worldId}:${answer.instanceId}` : null);
  const parts = location ? splitLocation(location) : null;
  if (!location || !parts) throw new VRChatError("VRChat answered without the instance's location", null, null, "refused-shape");
  // An answer about another world is not the instance asked for.
  if (parts.worldId !== worldId) throw new VRChatError("VRChat answered with an instance of another world", null, null, "refused-shape");
  return { location, worldId, instanceId: parts.instanceId, shortName: answer.shortName || null };
}

const sameTime = (a: string | null | undefined, b: string) => Boolean(a) && Math.abs(Date.parse(a!) - Date.parse(b)) < 1_000;

/** Whether an instance read back is the one Dwell asked for: every fact it set, and nothing else. */
export function isMadeAsRequested(answer: z.infer<typeof InstanceSchema>, requested: RequestedInstance, facts: { groupId: string; botUserId: string }): boolean {
  const roleOnly = requested.access === "role";
  if (answer.ownerId !== facts.groupId || answer.type !== "group") return false;
  if (answer.creatorId && answer.creatorId !== facts.botUserId) return false;
  if (answer.groupAccessType !== (roleOnly ? "members" : requested.access)) return false;
  if (Boolean(answer.roleRestricted) !== roleOnly) return false;
  if (answer.roleIds && [...answer.roleIds].sort().join() !== [...requested.roleIds].sort().join()) return false;
  if ((answer.calendarEntryId || null) !== requested.calendarEntryId) return false;
  return sameTime(answer.closedAt, requested.closedAt);
}

export function createInstanceOpener({ client, groupId, pacer = createPacer(1_000, Date.now) }: { client: VRChatClient; groupId: string; pacer?: Pacer }) {
  /**
   * The instance an earlier try made for this request but whose answer was lost, if VRChat has it:
   * the group's open instances of the world, not one of `taken`, each read back and matched on what
   * Dwell set. At most 1 + MAX_READ_BACK calls.
   */
  async function findMade(worldId: string, requested: RequestedInstance, taken: ReadonlySet<string> = new Set()): Promise<OpenedInstance | null> {
    const list = await pacer(() => client.get(`/groups/${groupId}/instances`, GroupInstancesSchema));
    const candidates = list
      .map((entry) => entry?.location ?? null)
      .filter((location): location is string => location !== null && splitLocation(location)?.worldId === worldId && !taken.has(location))
      .slice(0, MAX_READ_BACK);
    if (candidates.length === 0) return null;
    const botUserId = await client.botUserId();
    for (const location of candidates) {
      // VRChat answers an instance that has just closed with 200 and null.
      const answer = await pacer(() => client.get(instancePath(location), InstanceSchema.nullable()));
      if (answer && isMadeAsRequested(answer, requested, { groupId, botUserId })) return opened({ ...answer, location: answer.location ?? location }, worldId);
    }
    return null;
  }

  /** Opens the group instance (one call, sent once). */
  async function open(request: InstanceRequest): Promise<OpenedInstance> {
    const body = {
      worldId: request.worldId,
      type: "group",
      ownerId: groupId,
      groupAccessType: request.access === "role" ? "members" : request.access,
      ...(request.access === "role" ? { roleIds: request.roleIds ?? [] } : {}),
      region: request.region,
      queueEnabled: true,
      closedAt: request.closedAt.toISOString(),
      ...(request.calendarEntryId ? { calendarEntryId: request.calendarEntryId } : {}),
    };
    const answer = await pacer(() => client.sendFor("POST", "/instances", body, InstanceSchema));
    return opened(answer, request.worldId);
  }

  /** The instance's short name, when its creation's answer had none (one call). */
  async function shortName(location: string): Promise<string | null> {
    const answer = await pacer(() => client.get(instancePath(location, "/shortName"), ShortNameSchema.nullable()));
    return answer?.shortName || null;
  }

  /** Closes it now. One VRChat has already closed (404) is closed. */
  async function close(location: string): Promise<void> {
    try {
      await pacer(() => client.send("DELETE", instancePath(location), undefined));
    } catch (error) {
      if (error instanceof VRChatError && error.status === 404) return;
      throw error;
    }
  }

  /**
   * Who is in an instance Dwell made (one call): VRChat lists its users to the instance's creator
   * only. Null once it has closed; `users` null when VRChat did not list them.
   */
  async function people(location: string): Promise<{ count: number; users: { id: string; displayName: string }[] | null } | null> {
    const answer = await client.get(instancePath(location), InstancePeopleSchema.nullable());
    if (!answer) return null;
    return { count: answer.n_users ?? answer.userCount ?? answer.users?.length ?? 0, users: answer.users ?? null };
  }

  return { findMade, open, shortName, close, people };
}

export type InstanceOpener = ReturnType<typeof createInstanceOpener>;
