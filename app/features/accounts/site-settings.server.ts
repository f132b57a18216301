/**
 * The owners' site-wide switches (defaults until an owner first changes one): each change is written
 * in the team's history, in words that say what the site does now.
 */
import type { Database } from "~/db/db.server";
import { siteSettings } from "~/db/schema";
import { record, type Actor } from "./team.server";

export interface SiteSettings {
  /** An event approval by an owner, admin or reviewer invites a non-member to the group in VRChat. */
  eventApprovalInvites: boolean;
  /** A group application is approved only once its VRChat account is proven. */
  groupRequiresProof: boolean;
  /** A join request with no application is decided by the screening rules (else left for staff). */
  joinRequestsByRules: boolean;
  /** A banned person's new application is rejected as it arrives. */
  rejectBanned: boolean;
  /** Applicants may edit their group application's answers while it is pending. */
  groupApplicantEdits: boolean;
}

const DEFAULTS: SiteSettings = { eventApprovalInvites: false, groupRequiresProof: false, joinRequestsByRules: false, rejectBanned: false, groupApplicantEdits: true };

/** What the team's history says of each switch turned on, and turned off. */
const HISTORY: Record<keyof SiteSettings, { on: string; off: string }> = {
  groupRequiresProof: {
    on: "required a proven VRChat account before a group application is approved",
    off: "stopped requiring a proven VRChat account for group applications",
  },
  groupApplicantEdits: { on: "let applicants edit their pending group applications", off: "stopped applicants from editing their group applications" },
  eventApprovalInvites: {
    on: "allowed event approvals by owners, admins and reviewers to invite to the group in VRChat",
    off: "stopped event approvals from inviting to the group in VRChat",
  },
  joinRequestsByRules: {
    on: "let the screening rules decide join requests that come without an application",
    off: "left join requests without an application for staff",
  },
  rejectBanned: {
    on: "let Dwell reject a banned person's new applications as they arrive",
    off: "left a banned person's new applications for staff (flagged)",
  },
};

export async function getSiteSettings(db: Pick<Database, "select">): Promise<SiteSettings> {
  const [row] = await db
    .select({
      eventApprovalInvites: siteSettings.eventApprovalInvites,
      groupRequiresProof: siteSettings.groupRequiresProof,
      joinRequestsByRules: siteSettings.joinRequestsByRules,
      rejectBanned: siteSettings.rejectBanned,
      groupApplicantEdits: siteSettings.groupApplicantEdits,
    })
    .from(siteSettings);
  return { ...DEFAULTS, ...row };
}

/** One switch set, and written in the team's history when it changed. */
async function setSwitch(db: Database, name: keyof SiteSettings, value: boolean, actor: Actor): Promise<void> {
  await db.transaction(async (tx) => {
    const before = await getSiteSettings(tx);
    if (before[name] === value) return;
    await tx.insert(siteSettings).values({ id: 1, [name]: value }).onConflictDoUpdate({ target: siteSettings.id, set: { [name]: value } });
    await record(tx, actor, value ? HISTORY[name].on : HISTORY[name].off);
  });
}

/** 'Require a proven VRChat account' for the group's form. */
export const setGroupRequiresProof = (db: Database, required: boolean, actor: Actor) => setSwitch(db, "groupRequiresProof", required, actor);
export const setGroupApplicantEdits = (db: Database, allowed: boolean, actor: Actor) => setSwitch(db, "groupApplicantEdits", allowed, actor);
export const setEventApprovalInvites = (db: Database, allowed: boolean, actor: Actor) => setSwitch(db, "eventApprovalInvites", allowed, actor);
/** What happens to a join request with no application: 'Apply the screening rules', or 'Leave it for staff'. */
export const setJoinRequestsByRules = (db: Database, byRules: boolean, actor: Actor) => setSwitch(db, "joinRequestsByRules", byRules, actor);
/** 'Reject a banned person's new applications automatically'. */
export const setRejectBanned = (db: Database, reject: boolean, actor: Actor) => setSwitch(db, "rejectBanned", reject, actor);
