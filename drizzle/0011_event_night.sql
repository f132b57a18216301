CREATE TABLE "event_instances" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"event_id" uuid NOT NULL,
	"state" text NOT NULL,
	"location" text,
	"world_id" text,
	"instance_id" text,
	"attempts" integer DEFAULT 0 NOT NULL,
	"busy_until" timestamp with time zone,
	"next_attempt_at" timestamp with time zone,
	"last_error" text,
	"opened_at" timestamp with time zone,
	"closed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "event_instances_event_id_key" UNIQUE("event_id"),
	CONSTRAINT "event_instances_state_check" CHECK ("event_instances"."state" in ('opening', 'open', 'failed', 'refused', 'missed', 'closed'))
);
--> statement-breakpoint
CREATE TABLE "event_reminders" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"event_id" uuid NOT NULL,
	"lead_minutes" integer NOT NULL,
	"recipient" text NOT NULL,
	"sent" boolean NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "application_audit_log" DROP CONSTRAINT "application_audit_log_field_check";--> statement-breakpoint
ALTER TABLE "event_applications" DROP CONSTRAINT "event_applications_status_check";--> statement-breakpoint
ALTER TABLE "outbox" DROP CONSTRAINT "outbox_target_check";--> statement-breakpoint
ALTER TABLE "event_applications" ADD COLUMN "withdrawn_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "event_applications" ADD COLUMN "attendance" text;--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "end_date" date;--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "end_time" time;--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "world_id" text;--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "world_image_url" text;--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "world_checked_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "instance_lead_minutes" integer DEFAULT 15;--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "instance_region" text DEFAULT 'us' NOT NULL;--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "instance_access" text DEFAULT 'members' NOT NULL;--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "waitlist_promotion" text DEFAULT 'pending' NOT NULL;--> statement-breakpoint
ALTER TABLE "event_instances" ADD CONSTRAINT "event_instances_event_id_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."events"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "event_reminders" ADD CONSTRAINT "event_reminders_event_id_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."events"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "event_reminders_once_key" ON "event_reminders" USING btree ("event_id","lead_minutes","recipient");--> statement-breakpoint
ALTER TABLE "application_audit_log" ADD CONSTRAINT "application_audit_log_field_check" CHECK ("application_audit_log"."field" in ('status', 'notes', 'spam', 'vrchat', 'discord', 'attendance'));--> statement-breakpoint
ALTER TABLE "event_applications" ADD CONSTRAINT "event_applications_attendance_check" CHECK ("event_applications"."attendance" in ('attended', 'no_show'));--> statement-breakpoint
ALTER TABLE "event_applications" ADD CONSTRAINT "event_applications_status_check" CHECK ("event_applications"."status" in ('pending', 'approved', 'rejected', 'waitlist', 'withdrawn'));--> statement-breakpoint
ALTER TABLE "events" ADD CONSTRAINT "events_waitlist_promotion_check" CHECK ("events"."waitlist_promotion" in ('pending', 'automatic'));--> statement-breakpoint
ALTER TABLE "events" ADD CONSTRAINT "events_instance_region_check" CHECK ("events"."instance_region" in ('us', 'use', 'eu', 'jp'));--> statement-breakpoint
ALTER TABLE "events" ADD CONSTRAINT "events_instance_access_check" CHECK ("events"."instance_access" in ('members', 'public'));--> statement-breakpoint
ALTER TABLE "events" ADD CONSTRAINT "events_instance_lead_check" CHECK ("events"."instance_lead_minutes" between 0 and 1440);--> statement-breakpoint
ALTER TABLE "events" ADD CONSTRAINT "events_end_check" CHECK (("events"."end_date" is null) = ("events"."end_time" is null));--> statement-breakpoint
ALTER TABLE "events" ADD CONSTRAINT "events_world_id_check" CHECK ("events"."world_id" ~ '^wrld_[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$');--> statement-breakpoint
ALTER TABLE "outbox" ADD CONSTRAINT "outbox_target_check" CHECK ("outbox"."target" in ('telegram', 'google_sheets', 'discord', 'vrchat_membership', 'discord_role', 'discord_dm', 'vrchat_calendar', 'discord_review', 'discord_announcement'));