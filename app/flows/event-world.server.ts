/**
 * The world an event happens in, as the event form gives it and VRChat knows it: a known world fills
 * the event's world name and picture; one VRChat does not know is refused; when VRChat cannot be
 * asked, the typed name is kept and the world marked as not checked. Called by every entry point
 * that saves an event.
 */
import type { EventRow } from "~/db/schema";
import type { EventInput, EventToSave } from "~/features/events/event-input";
import type { WorldLookup } from "~/features/vrchat/vrchat-worlds.server";
import { m } from "~/paraglide/messages";

export type WorldOutcome =
  | { ok: true; event: EventToSave; unchecked: boolean }
  | { ok: false; field: "worldLink" | "worldName"; error: string };

/** `previous`: the event as stored, when it is being edited (an unchanged, checked world is not asked again). */
export async function checkEventWorld(worlds: WorldLookup | null, input: EventInput, previous: EventRow | null, now: Date): Promise<WorldOutcome> {
  const { worldId } = input;
  if (!worldId) return { ok: true, event: { ...input, worldImageUrl: null, worldCheckedAt: null }, unchecked: false };
  if (previous?.worldId === worldId && previous.worldCheckedAt) {
    const worldName = input.worldName || previous.worldName;
    return { ok: true, event: { ...input, worldName, worldImageUrl: previous.worldImageUrl, worldCheckedAt: previous.worldCheckedAt }, unchecked: false };
  }
  const found = worlds ? await worlds.check(worldId) : ({ kind: "unchecked", reason: "VRChat is not set up" } as const);
  if (found.kind === "unknown") return { ok: false, field: "worldLink", error: m.aev_world_unknown() };
  if (found.kind === "found") {
    // A new world brings its own name; the same world keeps a name the admins typed.
    const worldName = found.name ?? (input.worldName || "Unknown World");
    return { ok: true, event: { ...input, worldName, worldImageUrl: found.imageUrl, worldCheckedAt: now }, unchecked: false };
  }
  if (!input.worldName) return { ok: false, field: "worldName", error: m.aev_world_name_needed() };
  return { ok: true, event: { ...input, worldImageUrl: previous?.worldId === worldId ? previous.worldImageUrl : null, worldCheckedAt: null }, unchecked: true };
}
