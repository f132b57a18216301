/**
 * `/api/health`, for monitors and load balancers: 200 while the site can serve (database reachable,
 * schema current), 503 otherwise, and publicly nothing but `ok` or `degraded` (an integration
 * failing): which integrations a site runs, and how they fail, is the operator's to know. The
 * detail (each integration's last success and failure, never settings or error texts) goes to the
 * data folder's socket (`npm run health`); the Sanctum's dashboard shows more.
 */
import { migrationStatus, pingDatabase, type Database } from "~/db/db.server";
import type { NotificationTarget } from "~/features/notifications/notification";
import { channelHealth } from "~/features/notifications/outbox.server";
import { lastSync } from "~/features/vrchat/event-sync.server";
import type { VRChatServices } from "~/features/vrchat/vrchat.server";
import type { MailStatus } from "~/utils/email.server";
import { log } from "~/utils/log.server";

/** The integrations' part is read at most this often: a monitor polling every second costs little. */
const DETAILS_TTL_MS = 5_000;

export interface HealthDeps {
  db: Database;
  notifications: { targets: readonly NotificationTarget[] };
  vrchat: VRChatServices;
  mail: { transport: "smtp" | "log"; status(): MailStatus };
}

const iso = (date: Date | null | undefined) => date?.toISOString() ?? null;

async function readDetails({ db, notifications, vrchat, mail }: HealthDeps) {
  const [migrations, channels, groupData, sync] = await Promise.all([
    migrationStatus(db),
    channelHealth(db, notifications.targets),
    vrchat.groupData.status(),
    lastSync(db),
  ]);
  const mailStatus = mail.status();
  return {
    migrations,
    integrations: {
      vrchat: {
        source: groupData.source,
        lastSuccessAt: iso(groupData.fetchedAt),
        lastFailureAt: iso(groupData.lastErrorAt),
      },
      eventSync: {
        lastRunAt: iso(sync?.startedAt),
        lastFinishedAt: iso(sync?.finishedAt),
        errors: sync?.result?.errors.length ?? 0,
      },
      notifications: Object.fromEntries(
        channels.map((channel) => [
          channel.target,
          {
            lastSuccessAt: iso(channel.lastDeliveredAt),
            lastFailureAt: iso(channel.lastFailedAt),
            pending: channel.pending,
            failed: channel.failed,
          },
        ]),
      ),
      mail: {
        transport: mail.transport,
        lastSuccessAt: iso(mailStatus.lastSuccessAt),
        lastFailureAt: iso(mailStatus.lastFailureAt),
      },
    },
  };
}

type Details = Awaited<ReturnType<typeof readDetails>>;

export type HealthCheck = () => Promise<{ ok: boolean; body: Record<string, unknown> }>;

const failedSince = (part: { lastSuccessAt: string | null; lastFailureAt: string | null }) =>
  !!part.lastFailureAt && (!part.lastSuccessAt || part.lastFailureAt > part.lastSuccessAt);

/** Whether any integration's latest attempt failed (or left deliveries failed). */
export function integrationsFailing(integrations: Details["integrations"]): boolean {
  return (
    failedSince(integrations.vrchat) ||
    integrations.eventSync.errors > 0 ||
    failedSince(integrations.mail) ||
    Object.values(integrations.notifications).some((channel) => failedSince(channel) || channel.failed > 0)
  );
}

/** What anyone may read: the HTTP status and one word. */
export function publicHealth({ ok, body }: Awaited<ReturnType<HealthCheck>>): { status: 200 | 503; body: { status: "ok" | "degraded" } } {
  const integrations = body.integrations as Details["integrations"] | undefined;
  const degraded = !ok || (integrations ? integrationsFailing(integrations) : false);
  return { status: ok ? 200 : 503, body: { status: degraded ? "degraded" : "ok" } };
}

export function createHealthCheck(deps: HealthDeps): HealthCheck {
  let cached: { at: number; details: Promise<Details> } | null = null;

  return async function check() {
    try {
      await pingDatabase(deps.db);
    } catch (error) {
      log.error("health check: database unreachable", { error });
      cached = null;
      return { ok: false, body: { status: "error", database: "unreachable" } };
    }
    if (!cached || Date.now() - cached.at > DETAILS_TTL_MS) {
      cached = { at: Date.now(), details: readDetails(deps) };
    }
    try {
      const details = await cached.details;
      const ok = details.migrations.state === "current";
      return { ok, body: { status: ok ? "ok" : "error", database: "ok", ...details } };
    } catch (error) {
      log.error("health check failed", { error });
      cached = null;
      return { ok: false, body: { status: "error", database: "ok" } };
    }
  };
}
