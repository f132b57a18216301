CREATE TABLE "vrchat_account_facts" (
	"vrchat_user_id" text PRIMARY KEY NOT NULL,
	"found" boolean NOT NULL,
	"account" jsonb,
	"groups" jsonb,
	"read_at" timestamp with time zone NOT NULL,
	"groups_read_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "vrchat_list_reads" (
	"list" text PRIMARY KEY NOT NULL,
	"read_at" timestamp with time zone NOT NULL,
	"entries" integer NOT NULL,
	"unreadable" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "vrchat_list_reads_list_check" CHECK ("vrchat_list_reads"."list" in ('join_requests', 'bans'))
);
--> statement-breakpoint
ALTER TABLE "applications" ADD COLUMN "discord_linked_how" text;--> statement-breakpoint
ALTER TABLE "applications" ADD COLUMN "rejected_with_block" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "event_applications" ADD COLUMN "discord_linked_how" text;--> statement-breakpoint
ALTER TABLE "bans" ADD COLUMN "reach" text DEFAULT 'everywhere' NOT NULL;--> statement-breakpoint
ALTER TABLE "screenings" ADD COLUMN "vrchat_user_id" text;--> statement-breakpoint
ALTER TABLE "vrchat_sessions" ADD COLUMN "quiet_until" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "applications" ADD CONSTRAINT "applications_discord_linked_how_check" CHECK ("applications"."discord_linked_how" in ('proven', 'name', 'staff'));--> statement-breakpoint
ALTER TABLE "event_applications" ADD CONSTRAINT "event_applications_discord_linked_how_check" CHECK ("event_applications"."discord_linked_how" in ('proven', 'name', 'staff'));--> statement-breakpoint
ALTER TABLE "bans" ADD CONSTRAINT "bans_reach_check" CHECK ("bans"."reach" in ('everywhere', 'site'));