CREATE TABLE "bans" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"vrchat_user_id" text,
	"discord_user_id" text,
	"display_name" text NOT NULL,
	"reason" text,
	"source" text NOT NULL,
	"banned_by" text,
	"banned_by_id" uuid,
	"banned_at" timestamp with time zone DEFAULT now() NOT NULL,
	"lifted_at" timestamp with time zone,
	"lifted_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "bans_source_check" CHECK ("bans"."source" in ('vrchat', 'dwell')),
	CONSTRAINT "bans_someone_check" CHECK ("bans"."vrchat_user_id" is not null or "bans"."discord_user_id" is not null)
);
--> statement-breakpoint
ALTER TABLE "outbox" DROP CONSTRAINT "outbox_target_check";--> statement-breakpoint
ALTER TABLE "site_settings" ADD COLUMN "reject_banned" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "bans" ADD CONSTRAINT "bans_banned_by_id_profiles_id_fk" FOREIGN KEY ("banned_by_id") REFERENCES "public"."profiles"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "bans_vrchat_in_force_key" ON "bans" USING btree ("vrchat_user_id") WHERE "bans"."lifted_at" is null and "bans"."vrchat_user_id" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "bans_discord_in_force_key" ON "bans" USING btree ("discord_user_id") WHERE "bans"."lifted_at" is null and "bans"."vrchat_user_id" is null;--> statement-breakpoint
ALTER TABLE "outbox" ADD CONSTRAINT "outbox_target_check" CHECK ("outbox"."target" in ('telegram', 'google_sheets', 'discord', 'vrchat_membership', 'discord_role', 'discord_dm', 'vrchat_calendar', 'discord_review', 'discord_announcement', 'vrchat_event_role', 'vrchat_ban', 'discord_ban'));