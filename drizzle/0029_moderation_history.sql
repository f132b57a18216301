CREATE TABLE "audit_log_reads" (
	"place" text PRIMARY KEY NOT NULL,
	"done_to" text,
	"sweep_top" text,
	"sweep_below" text,
	"last_read_at" timestamp with time zone,
	"last_error" text,
	"last_error_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "moderation_acts" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"place" text NOT NULL,
	"source_id" text NOT NULL,
	"kind" text NOT NULL,
	"actor_key" text NOT NULL,
	"actor_account_id" text,
	"actor_name" text NOT NULL,
	"target_vrchat_id" text,
	"target_discord_id" text,
	"target_name" text,
	"role_id" text,
	"role_name" text,
	"reason" text,
	"at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "moderation_acts_place_check" CHECK ("moderation_acts"."place" in ('vrchat', 'discord', 'dwell')),
	CONSTRAINT "moderation_acts_kind_check" CHECK ("moderation_acts"."kind" in ('ban', 'unban', 'kick', 'timeout', 'role_add', 'role_remove', 'approve', 'reject', 'instance_kick'))
);
--> statement-breakpoint
CREATE TABLE "person_pairs" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"vrchat_user_id" text NOT NULL,
	"discord_user_id" text NOT NULL,
	"confirmed_by" text NOT NULL,
	"confirmed_by_id" uuid,
	"confirmed_at" timestamp with time zone DEFAULT now() NOT NULL,
	"withdrawn_at" timestamp with time zone,
	"withdrawn_by" text
);
--> statement-breakpoint
CREATE TABLE "role_holdings" (
	"place" text NOT NULL,
	"role_id" text NOT NULL,
	"account_id" text NOT NULL,
	"seen_at" timestamp with time zone NOT NULL,
	CONSTRAINT "role_holdings_place_role_id_account_id_pk" PRIMARY KEY("place","role_id","account_id")
);
--> statement-breakpoint
CREATE TABLE "role_links" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"vrchat_role_id" text NOT NULL,
	"vrchat_role_name" text NOT NULL,
	"discord_role_id" text NOT NULL,
	"discord_role_name" text NOT NULL,
	"direction" text NOT NULL,
	"state" text DEFAULT 'reading' NOT NULL,
	"created_by" text NOT NULL,
	"read_error" text,
	"fill_total" integer DEFAULT 0 NOT NULL,
	"fill_started_at" timestamp with time zone,
	"fill_finished_at" timestamp with time zone,
	"removed_at" timestamp with time zone,
	"removed_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "role_links_direction_check" CHECK ("role_links"."direction" in ('to_discord', 'to_vrchat', 'both')),
	CONSTRAINT "role_links_state_check" CHECK ("role_links"."state" in ('reading', 'ready', 'filling', 'active', 'removed'))
);
--> statement-breakpoint
CREATE TABLE "tripwire_settings" (
	"id" integer PRIMARY KEY DEFAULT 1 NOT NULL,
	"removal_limit" integer,
	"role_removal_limit" integer,
	"window_minutes" integer DEFAULT 10 NOT NULL,
	"suspend" boolean DEFAULT false NOT NULL,
	"retention_days" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "tripwire_settings_one_row_check" CHECK ("tripwire_settings"."id" = 1),
	CONSTRAINT "tripwire_settings_limits_check" CHECK (coalesce("tripwire_settings"."removal_limit", 1) > 0 and coalesce("tripwire_settings"."role_removal_limit", 1) > 0 and "tripwire_settings"."window_minutes" between 1 and 1440)
);
--> statement-breakpoint
CREATE TABLE "tripwire_trips" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"actor_key" text NOT NULL,
	"actor_name" text NOT NULL,
	"profile_id" uuid,
	"counts" jsonb NOT NULL,
	"window_start" timestamp with time zone NOT NULL,
	"tripped_at" timestamp with time zone NOT NULL,
	"suspended" boolean DEFAULT false NOT NULL,
	"roles_taken" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"undone_at" timestamp with time zone,
	"undone_by" text,
	"undo_result" text,
	"closed_at" timestamp with time zone,
	"closed_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "outbox" DROP CONSTRAINT "outbox_target_check";--> statement-breakpoint
ALTER TABLE "profiles" ADD COLUMN "suspended_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "person_pairs" ADD CONSTRAINT "person_pairs_confirmed_by_id_profiles_id_fk" FOREIGN KEY ("confirmed_by_id") REFERENCES "public"."profiles"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tripwire_trips" ADD CONSTRAINT "tripwire_trips_profile_id_profiles_id_fk" FOREIGN KEY ("profile_id") REFERENCES "public"."profiles"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "moderation_acts_source_key" ON "moderation_acts" USING btree ("place","source_id");--> statement-breakpoint
CREATE INDEX "moderation_acts_at_idx" ON "moderation_acts" USING btree ("at","id");--> statement-breakpoint
CREATE INDEX "moderation_acts_place_at_idx" ON "moderation_acts" USING btree ("place","at","id");--> statement-breakpoint
CREATE INDEX "moderation_acts_kind_at_idx" ON "moderation_acts" USING btree ("kind","at","id");--> statement-breakpoint
CREATE INDEX "moderation_acts_actor_at_idx" ON "moderation_acts" USING btree ("actor_key","at","id");--> statement-breakpoint
CREATE INDEX "moderation_acts_vrchat_target_idx" ON "moderation_acts" USING btree ("target_vrchat_id","at","id");--> statement-breakpoint
CREATE INDEX "moderation_acts_discord_target_idx" ON "moderation_acts" USING btree ("target_discord_id","at","id");--> statement-breakpoint
CREATE INDEX "moderation_acts_target_name_idx" ON "moderation_acts" USING btree (lower("target_name") text_pattern_ops);--> statement-breakpoint
CREATE UNIQUE INDEX "person_pairs_in_force_key" ON "person_pairs" USING btree ("vrchat_user_id","discord_user_id") WHERE "person_pairs"."withdrawn_at" is null;--> statement-breakpoint
CREATE INDEX "person_pairs_discord_idx" ON "person_pairs" USING btree ("discord_user_id");--> statement-breakpoint
CREATE INDEX "role_holdings_account_idx" ON "role_holdings" USING btree ("place","account_id");--> statement-breakpoint
CREATE UNIQUE INDEX "role_links_vrchat_in_force_key" ON "role_links" USING btree ("vrchat_role_id") WHERE "role_links"."removed_at" is null;--> statement-breakpoint
CREATE UNIQUE INDEX "role_links_discord_in_force_key" ON "role_links" USING btree ("discord_role_id") WHERE "role_links"."removed_at" is null;--> statement-breakpoint
CREATE INDEX "tripwire_trips_open_idx" ON "tripwire_trips" USING btree ("tripped_at") WHERE "tripwire_trips"."closed_at" is null;--> statement-breakpoint
CREATE INDEX "tripwire_trips_actor_idx" ON "tripwire_trips" USING btree ("actor_key","tripped_at");--> statement-breakpoint
ALTER TABLE "outbox" ADD CONSTRAINT "outbox_target_check" CHECK ("outbox"."target" in ('telegram', 'google_sheets', 'discord', 'vrchat_membership', 'discord_role', 'discord_dm', 'vrchat_calendar', 'discord_review', 'discord_announcement', 'vrchat_event_role', 'vrchat_ban', 'discord_ban', 'vrchat_post', 'discord_post', 'discord_event', 'member_role', 'staff_alert', 'role_link_read'));