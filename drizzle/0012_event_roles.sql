CREATE TABLE "event_roles" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"event_id" uuid NOT NULL,
	"state" text NOT NULL,
	"role_id" text,
	"busy_until" timestamp with time zone,
	"last_error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "event_roles_event_id_key" UNIQUE("event_id"),
	CONSTRAINT "event_roles_state_check" CHECK ("event_roles"."state" in ('creating', 'ready', 'refused', 'retiring', 'deleted'))
);
--> statement-breakpoint
ALTER TABLE "outbox" DROP CONSTRAINT "outbox_target_check";--> statement-breakpoint
ALTER TABLE "event_applications" ADD COLUMN "vrchat_profile_check" text;--> statement-breakpoint
ALTER TABLE "event_applications" ADD COLUMN "vrchat_user_id" text;--> statement-breakpoint
ALTER TABLE "event_applications" ADD COLUMN "vrchat_display_name" text;--> statement-breakpoint
ALTER TABLE "event_applications" ADD COLUMN "event_role" text;--> statement-breakpoint
ALTER TABLE "event_applications" ADD COLUMN "event_role_checked_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "event_roles" ADD CONSTRAINT "event_roles_event_id_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."events"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "event_applications" ADD CONSTRAINT "event_applications_event_role_check" CHECK ("event_applications"."event_role" in ('given', 'not_member', 'removed'));--> statement-breakpoint
ALTER TABLE "outbox" ADD CONSTRAINT "outbox_target_check" CHECK ("outbox"."target" in ('telegram', 'google_sheets', 'discord', 'vrchat_membership', 'discord_role', 'discord_dm', 'vrchat_calendar', 'discord_review', 'discord_announcement', 'vrchat_event_role'));