/**
 * The worlds events happen in: `GET /worlds/{worldId}` confirms a world an admin gave on the event
 * form and brings its name and picture. A staff lookup: cached a few minutes, from the staff's
 * allowance of calls (shared by every process on the database), never retried by a visitor.
 * Field facts come from the community's OpenAPI description of the VRChat API (vrchatapi/specification).
 */
import { z } from "zod";
import { createLookupCache, LookupBudgetError } from "~/utils/lookup-cache.server";
import { failureText } from "~/utils/failure-text.server";
import { VRCHAT_WORLD_ID } from "~/utils/vrchat-world-link";
import type { VRChatClient } from "./vrchat-client.server";
import { VRChatError } from "./vrchat-error";
import { imageUrl } from "./vrchat-membership.server";
import { m } from "~/paraglide/messages";

/** The World fields Dwell uses. The description requires each; Dwell needs only the id. */
const WorldSchema = z.object({
  id: z.string(),
  name: z.string().nullish(),
  imageUrl,
  thumbnailImageUrl: imageUrl,
});

export type WorldCheck =
  | { kind: "found"; name: string | null; imageUrl: string | null }
  /** VRChat answered that it has no such world. */
  | { kind: "unknown" }
  /** VRChat could not be asked: the world is kept as given, not checked. */
  | { kind: "unchecked"; reason: string };

export interface WorldLookupOptions {
  client: VRChatClient;
  cacheMs?: number;
  callsPerMinute?: number;
  now?: () => number;
  spendShared?: (key: string, callsPerMinute: number) => Promise<boolean>;
}

export function createWorldLookup({ client, cacheMs = 10 * 60_000, callsPerMinute = 30, now = Date.now, spendShared }: WorldLookupOptions) {
  const lookups = createLookupCache({
    ttlMs: cacheMs,
    callsPerMinute,
    budgetMessage: m.lk_budget_vrchat,
    now,
    // The staff's allowance: the same count as their applicant lookups.
    spend: spendShared && ((perMinute) => spendShared("vrchat-lookups:staff", perMinute)),
  });

  /** What VRChat says of a world: its name and picture, that it has none such, or why it was not asked. */
  async function check(worldId: string): Promise<WorldCheck> {
    if (!VRCHAT_WORLD_ID.test(worldId)) return { kind: "unknown" };
    let world;
    try {
      world = await lookups.get(`world:${worldId}`, () => client.get(`/worlds/${encodeURIComponent(worldId)}`, WorldSchema, undefined, { once: true }));
    } catch (error) {
      if (error instanceof VRChatError && error.status === 404) return { kind: "unknown" };
      if (error instanceof LookupBudgetError) return { kind: "unchecked", reason: error.message };
      return { kind: "unchecked", reason: failureText(error) };
    }
    // An answer about another world is no answer about this one.
    if (world.id !== worldId) return { kind: "unchecked", reason: "VRChat answered with another world" };
    return { kind: "found", name: world.name?.trim() || null, imageUrl: world.imageUrl ?? world.thumbnailImageUrl ?? null };
  }

  return { check };
}

export type WorldLookup = ReturnType<typeof createWorldLookup>;
