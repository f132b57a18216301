/**
 * The group instances Dwell opens for events: `POST /instances` (a group instance of the event's
 * world, owned by the group), the group's open instances (`GET /groups/{groupId}/instances`, to find
 * one already made before making another), and `DELETE /instances/{location}` to close one. Writes
 * are sent once and paced with Dwell's other actions in VRChat.
 * Field facts come from the community's OpenAPI description of the VRChat API (vrchatapi/specification).
 */
import { z } from "zod";
import type { InstanceAccess, InstanceRegion } from "~/db/enums";
import { createPacer, type Pacer } from "./vrchat-actions.server";
import { VRChatError, type VRChatClient } from "./vrchat-client.server";

export interface OpenedInstance {
  /** "wrld_…:12345~group(grp_…)~…": what VRChat names the instance by. */
  location: string;
  worldId: string;
  instanceId: string;
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

/** An Instance as `POST /instances` answers it: the description requires each, Dwell needs the ids. */
const InstanceSchema = z.object({
  id: z.string().nullish(),
  location: z.string().nullish(),
  instanceId: z.string().nullish(),
  worldId: z.string().nullish(),
});
const GroupInstancesSchema = z.array(z.object({ instanceId: z.string().nullish(), location: z.string().nullish(), world: z.object({ id: z.string().nullish() }).nullish() }).nullable());

/** The world and instance of a location ("wrld_…:instance…"). */
export function splitLocation(location: string): { worldId: string; instanceId: string } | null {
  const colon = location.indexOf(":");
  if (colon < 1 || colon === location.length - 1) return null;
  return { worldId: location.slice(0, colon), instanceId: location.slice(colon + 1) };
}

/** The link that opens an instance in VRChat (`vrchat.com/home/launch`). */
export const joinLink = (instance: { worldId: string; instanceId: string }) =>
  `https://vrchat.com/home/launch?worldId=${encodeURIComponent(instance.worldId)}&instanceId=${encodeURIComponent(instance.instanceId)}`;

function opened(answer: z.infer<typeof InstanceSchema>, worldId: string): OpenedInstance {
  const location = answer.location ?? answer.id ?? (answer.instanceId ? `${worldId}:${answer.instanceId}` : null);
  const parts = location ? splitLocation(location) : null;
  if (!location || !parts) throw new VRChatError("VRChat answered without the instance's location", null, null, "refused-shape");
  // An answer about another world is not the instance asked for.
  if (parts.worldId !== worldId) throw new VRChatError("VRChat answered with an instance of another world", null, null, "refused-shape");
  return { location, worldId, instanceId: parts.instanceId };
}

export function createInstanceOpener({ client, groupId, pacer = createPacer(1_000, Date.now) }: { client: VRChatClient; groupId: string; pacer?: Pacer }) {
  /** An instance of this world the group has open now, not one of `taken`, if any (one call). */
  async function findOpen(worldId: string, taken: ReadonlySet<string> = new Set()): Promise<OpenedInstance | null> {
    const list = await pacer(() => client.get(`/groups/${groupId}/instances`, GroupInstancesSchema));
    for (const entry of list) {
      const location = entry?.location ?? null;
      const parts = location ? splitLocation(location) : null;
      if (location && parts && parts.worldId === worldId && !taken.has(location)) return { location, worldId, instanceId: parts.instanceId };
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

  /** Closes it now. One VRChat has already closed (404) is closed. */
  async function close(location: string): Promise<void> {
    try {
      await pacer(() => client.send("DELETE", `/instances/${encodeURIComponent(location)}`, undefined));
    } catch (error) {
      if (error instanceof VRChatError && error.status === 404) return;
      throw error;
    }
  }

  return { findOpen, open, close };
}

export type InstanceOpener = ReturnType<typeof createInstanceOpener>;
