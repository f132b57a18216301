ALTER TABLE "events" ADD COLUMN "vrchat_import" text;--> statement-breakpoint
ALTER TABLE "group_data_cache" ADD COLUMN "members_only" jsonb;--> statement-breakpoint
ALTER TABLE "group_data_cache" ADD COLUMN "refresh_state" jsonb;--> statement-breakpoint
ALTER TABLE "vrchat_sessions" ADD COLUMN "user_id" text;--> statement-breakpoint
ALTER TABLE "events" ADD CONSTRAINT "events_vrchat_import_check" CHECK ("events"."vrchat_import" in ('sync', 'admin'));--> statement-breakpoint
-- Events imported before this column came from the calendar sync.
UPDATE "events" SET "vrchat_import" = 'sync' WHERE "vrchat_event_id" IS NOT NULL;--> statement-breakpoint
-- Group data cached by earlier versions may hold members-only events and posts and hidden members:
-- dropped, so nothing is served until a refresh that keeps them apart has run.
UPDATE "group_data_cache" SET "data" = NULL, "fetched_at" = NULL;
