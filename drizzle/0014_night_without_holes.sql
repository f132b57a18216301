CREATE TABLE "site_settings" (
	"id" integer PRIMARY KEY DEFAULT 1 NOT NULL,
	"event_approval_invites" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "site_settings_one_row_check" CHECK ("site_settings"."id" = 1)
);
--> statement-breakpoint
CREATE TABLE "discord_interactions" (
	"id" text PRIMARY KEY NOT NULL,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "event_instances" ADD COLUMN "requested" jsonb;--> statement-breakpoint
ALTER TABLE "event_instances" ADD COLUMN "short_name" text;