CREATE TABLE "discord_events" (
	"event_id" uuid PRIMARY KEY NOT NULL,
	"discord_event_id" text,
	"state" text DEFAULT 'waiting' NOT NULL,
	"synced_fingerprint" text,
	"create_attempted_at" timestamp with time zone,
	"last_error" text,
	"busy_until" timestamp with time zone,
	"user_count" integer,
	"counted_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "discord_events_state_check" CHECK ("discord_events"."state" in ('waiting', 'published', 'failed', 'removed', 'gone'))
);
--> statement-breakpoint
ALTER TABLE "outbox" DROP CONSTRAINT "outbox_target_check";--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "discord_event" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "outbox" ADD CONSTRAINT "outbox_target_check" CHECK ("outbox"."target" in ('telegram', 'google_sheets', 'discord', 'vrchat_membership', 'discord_role', 'discord_dm', 'vrchat_calendar', 'discord_review', 'discord_announcement', 'vrchat_event_role', 'vrchat_ban', 'discord_ban', 'vrchat_post', 'discord_post', 'discord_event'));