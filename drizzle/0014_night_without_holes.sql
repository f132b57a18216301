CREATE TABLE "site_settings" (
	"id" integer PRIMARY KEY DEFAULT 1 NOT NULL,
	"event_approval_invites" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "site_settings_one_row_check" CHECK ("site_settings"."id" = 1)
);
--> statement-breakpoint
CREATE TABLE "status_links" (
	"token_hash" text PRIMARY KEY NOT NULL,
	"application_kind" text NOT NULL,
	"application_id" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "status_links_kind_check" CHECK ("status_links"."application_kind" in ('group', 'event'))
);
--> statement-breakpoint
CREATE TABLE "discord_interactions" (
	"id" text PRIMARY KEY NOT NULL,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "event_instances" ADD COLUMN "requested" jsonb;--> statement-breakpoint
ALTER TABLE "event_instances" ADD COLUMN "short_name" text;--> statement-breakpoint
ALTER TABLE "vrchat_publications" ADD COLUMN "requested_by_host" boolean DEFAULT false NOT NULL;--> statement-breakpoint
CREATE INDEX "status_links_application_idx" ON "status_links" USING btree ("application_id");