/**
 * An instance as VRChat names it (a location, "wrld_…:12345~group(grp_…)~…"), the one way Dwell
 * builds the API path of an instance, and the links that open one in VRChat.
 *
 * The API's description writes the path as `/instances/{worldId}:{instanceId}`: the colon is part of
 * the path, not of a parameter, so each part is encoded alone and the colon never is (VRChat answers
 * a `%3A` with "no such route").
 */

/** The world and instance of a location ("wrld_…:instance…"). */
export function splitLocation(location: string): { worldId: string; instanceId: string } | null {
  const colon = location.indexOf(":");
  if (colon < 1 || colon === location.length - 1) return null;
  return { worldId: location.slice(0, colon), instanceId: location.slice(colon + 1) };
}

/** `/instances/{worldId}:{instanceId}` (and what follows it, e.g. `/shortName`) for a location. */
export function instancePath(location: string, suffix: "" | "/shortName" = ""): string {
  const parts = splitLocation(location);
  if (!parts) throw new Error("Not an instance's location");
  return `/instances/${encodeURIComponent(parts.worldId)}:${encodeURIComponent(parts.instanceId)}${suffix}`;
}

/** The link that opens an instance in VRChat (`vrchat.com/home/launch`): it names the instance whole. */
export const joinLink = (instance: { worldId: string; instanceId: string }) =>
  `https://vrchat.com/home/launch?worldId=${encodeURIComponent(instance.worldId)}&instanceId=${encodeURIComponent(instance.instanceId)}`;

/**
 * The instance's short link (`vrch.at/{shortName}`): it opens the same instance without naming its
 * owner or its nonce, so it is the only one a public page may show.
 */
export const shortJoinLink = (shortName: string) => `https://vrch.at/${encodeURIComponent(shortName)}`;

/** The link of an instance Dwell keeps (a row that may not have one yet), for the people it writes to itself. */
export const joinLinkOf = (instance: { worldId: string | null; instanceId: string | null }) =>
  instance.worldId && instance.instanceId ? joinLink({ worldId: instance.worldId, instanceId: instance.instanceId }) : null;
