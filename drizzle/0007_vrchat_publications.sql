CREATE TABLE "vrchat_publications" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"event_id" uuid,
	"wanted" boolean DEFAULT true NOT NULL,
	"details" jsonb NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"synced_version" integer DEFAULT 0 NOT NULL,
	"state" text DEFAULT 'pending' NOT NULL,
	"vrchat_event_id" text,
	"create_attempted_at" timestamp with time zone,
	"vrchat_created_at" timestamp with time zone,
	"last_error" text,
	"busy_until" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "vrchat_publications_vrchat_event_id_unique" UNIQUE("vrchat_event_id"),
	CONSTRAINT "vrchat_publications_state_check" CHECK ("vrchat_publications"."state" in ('pending', 'published', 'removed', 'failed'))
);
--> statement-breakpoint
ALTER TABLE "outbox" DROP CONSTRAINT "outbox_target_check";--> statement-breakpoint
ALTER TABLE "vrchat_publications" ADD CONSTRAINT "vrchat_publications_event_id_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."events"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "vrchat_publications_wanted_event_idx" ON "vrchat_publications" USING btree ("event_id") WHERE "vrchat_publications"."wanted";--> statement-breakpoint
CREATE INDEX "vrchat_publications_created_idx" ON "vrchat_publications" USING btree ("vrchat_created_at");--> statement-breakpoint
ALTER TABLE "outbox" ADD CONSTRAINT "outbox_target_check" CHECK ("outbox"."target" in ('telegram', 'google_sheets', 'discord', 'vrchat_membership', 'discord_role', 'discord_dm', 'vrchat_calendar'));