import type { Database } from "~/db/db.server";
import { vrchatConfig, type Config, type VRChatConfig } from "~/utils/env.server";
import { createCalendarPublisher, type CalendarPublisher } from "./calendar-publisher.server";
import { createEventSync, type EventSync } from "./event-sync.server";
import {
  createCachedGroupData,
  createDemoGroupData,
  createGroupDataOff,
  type GroupDataService,
} from "./group-data.server";
import { hitRateLimit } from "~/utils/rate-limit.server";
import { takeTurn } from "~/utils/pace.server";
import { createPacer } from "./vrchat-actions.server";
import { refreshGroupData, worstCaseCalls } from "./vrchat-api.server";
import { createVRChatClient, type VRChatClientOptions } from "./vrchat-client.server";
import { createVRChatMembership, type VRChatMembership } from "./vrchat-membership.server";
import { databaseSessionStore } from "./vrchat-session.server";
import { createWorldLookup, type WorldLookup } from "./vrchat-worlds.server";
import { createInstanceOpener, type InstanceOpener } from "./vrchat-instances.server";
import { createRoleKeeper, createRoleList, createRoleReader, type RoleKeeper, type RoleReader } from "./vrchat-roles.server";
import { createPostKeeper, type PostKeeper } from "./vrchat-posts.server";
import { createVRChatAuditLog, type VRChatAuditLog } from "./vrchat-audit-log.server";

export interface VRChatServices {
  groupData: GroupDataService;
  eventSync: EventSync;
  /** Lookups of applicants, and the actions of decisions: null when VRChat is not configured. */
  membership: VRChatMembership | null;
  /** Decisions act in VRChat (VRCHAT_MEMBERSHIP_ACTIONS, with VRChat configured). */
  membershipActions: boolean;
  /** Checks the worlds events happen in: null when VRChat is not configured. */
  worlds: WorldLookup | null;
  /** Opens and closes events' group instances (VRCHAT_OPEN_INSTANCES, with VRChat configured). */
  instances: InstanceOpener | null;
  /**
   * Makes, gives, takes and deletes events' own roles, for their role-only instances (with
   * VRCHAT_OPEN_INSTANCES: the same choice of letting Dwell run event nights in VRChat).
   */
  roles: RoleKeeper | null;
  /**
   * Events can be published to the group's VRChat calendar (VRCHAT_PUBLISH_EVENTS, with VRChat
   * configured): the worker's channel, and the group, for links to its entries.
   */
  calendar: { publisher: CalendarPublisher; groupId: string } | null;
  /** The group's posts Dwell writes (announcements): null when VRChat is not configured. */
  posts: PostKeeper | null;
  /** The group's roles, for an announcement meant for some of them: null when VRChat is not configured. */
  listRoles: (() => Promise<{ id: string; name: string }[]>) | null;
  /** The group's audit log, for the moderation history: null when VRChat is not configured. */
  auditLog: VRChatAuditLog | null;
  /** Gives and takes members' roles (an undo, the role bridge): with the decisions' actions in VRChat only. */
  memberRoles: RoleKeeper | null;
  /** The group's roles and their holders, for the role bridge: null when VRChat is not configured. */
  roleReader: RoleReader | null;
}

/** A minute's allowance of calls counted in the database, for every process that shares it. */
export const sharedAllowance = (db: Database) => async (key: string, callsPerMinute: number) =>
  (await hitRateLimit(db, { key, limit: callsPerMinute, windowMs: 60_000, now: new Date() })).allowed;

/** The least time between two of Dwell's calls to VRChat that act (a decision's, a publication's). */
const ACTION_SPACING_MS = 1_000;

/** Visits and the schedule sync the calendar at most this often (admins may ask sooner). */
export const SYNC_MIN_INTERVAL_MS = 5 * 60 * 1000;

/**
 * The group's live data and the calendar import, from VRChat when it is configured; otherwise the
 * example group (when demo content is on) or nothing. Demo data is never shown once VRChat is set.
 */
/** A client for the group's bot account, its session shared through the database with every process. */
export function createBotClient(db: Database, vrchat: VRChatConfig, secret: string, options: Partial<VRChatClientOptions> = {}) {
  return createVRChatClient({
    apiUrl: vrchat.apiUrl,
    username: vrchat.username,
    password: vrchat.password,
    totpSecret: vrchat.totpSecret,
    contact: vrchat.contact,
    store: databaseSessionStore(db, vrchat.username, secret),
    ...options,
  });
}

export function createVRChatServices(db: Database, config: Config, secret: string): VRChatServices {
  const vrchat = vrchatConfig(config);
  let groupData: GroupDataService;
  let membership: VRChatMembership | null = null;
  let calendar: VRChatServices["calendar"] = null;
  let worlds: WorldLookup | null = null;
  let instances: InstanceOpener | null = null;
  let roles: RoleKeeper | null = null;
  let posts: PostKeeper | null = null;
  let listRoles: VRChatServices["listRoles"] = null;
  let auditLog: VRChatAuditLog | null = null;
  let memberRoles: RoleKeeper | null = null;
  let roleReader: RoleReader | null = null;
  if (vrchat) {
    const client = createBotClient(db, vrchat, secret, { timeoutMs: config.VRCHAT_TIMEOUT_SECONDS * 1000 });
    groupData = createCachedGroupData({
      db,
      groupId: vrchat.groupId,
      refreshUpstream: (previous, deadline) =>
        refreshGroupData(client, vrchat.groupId, { maxMembers: config.VRCHAT_MEMBERS_MAX, now: new Date(), deadline, previous }),
      windowMs: config.VRCHAT_CACHE_SECONDS * 1000,
      // Room for the most calls a refresh can make, each taking its whole timeout; the refresh stops
      // asking VRChat before the lease ends, so no second process starts one beside it. A crashed
      // refresher's lease runs out by itself, leaving the data stale that long at most.
      leaseMs: Math.max(60_000, worstCaseCalls(config.VRCHAT_MEMBERS_MAX) * config.VRCHAT_TIMEOUT_SECONDS * 1000 + 10_000),
    });
    // The decisions' actions and the calendar's publications keep one pace between them, and with
    // every other process on the database; so do the lookups' allowances.
    const pacer = createPacer(ACTION_SPACING_MS, Date.now, () => takeTurn(db, "vrchat-actions", ACTION_SPACING_MS));
    membership = createVRChatMembership({
      client,
      groupId: vrchat.groupId,
      timeoutMs: config.VRCHAT_TIMEOUT_SECONDS * 1000,
      actionSpacingMs: ACTION_SPACING_MS,
      pacer,
      screeningCallsPerMinute: config.VRCHAT_SCREENING_CALLS_PER_MINUTE,
      spendShared: sharedAllowance(db),
    });
    worlds = createWorldLookup({ client, spendShared: sharedAllowance(db) });
    posts = createPostKeeper({ client, groupId: vrchat.groupId, pacer });
    listRoles = createRoleList(client, vrchat.groupId);
    auditLog = createVRChatAuditLog({ client, groupId: vrchat.groupId });
    roleReader = createRoleReader(client, vrchat.groupId);
    if (config.VRCHAT_MEMBERSHIP_ACTIONS) memberRoles = createRoleKeeper({ client, groupId: vrchat.groupId, pacer });
    if (config.VRCHAT_OPEN_INSTANCES) {
      instances = createInstanceOpener({ client, groupId: vrchat.groupId, pacer });
      roles = createRoleKeeper({ client, groupId: vrchat.groupId, pacer });
    }
    if (config.VRCHAT_PUBLISH_EVENTS) {
      const publisher = createCalendarPublisher({
        db,
        client,
        groupId: vrchat.groupId,
        timeoutMs: config.VRCHAT_TIMEOUT_SECONDS * 1000,
        spacingMs: ACTION_SPACING_MS,
        pacer,
      });
      calendar = { publisher, groupId: vrchat.groupId };
    }
  } else {
    groupData = config.DEMO_CONTENT ? createDemoGroupData() : createGroupDataOff();
  }
  return {
    groupData,
    eventSync: createEventSync({ db, groupData, minIntervalMs: SYNC_MIN_INTERVAL_MS }),
    membership,
    membershipActions: membership !== null && config.VRCHAT_MEMBERSHIP_ACTIONS,
    calendar,
    worlds,
    instances,
    roles,
    posts,
    listRoles,
    auditLog,
    memberRoles,
    roleReader,
  };
}
