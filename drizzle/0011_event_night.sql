ALTER TABLE "event_applications" DROP CONSTRAINT "event_applications_status_check";--> statement-breakpoint
ALTER TABLE "event_applications" ADD COLUMN "withdrawn_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "end_date" date;--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "end_time" time;--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "world_id" text;--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "world_image_url" text;--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "world_checked_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "waitlist_promotion" text DEFAULT 'pending' NOT NULL;--> statement-breakpoint
ALTER TABLE "event_applications" ADD CONSTRAINT "event_applications_status_check" CHECK ("event_applications"."status" in ('pending', 'approved', 'rejected', 'waitlist', 'withdrawn'));--> statement-breakpoint
ALTER TABLE "events" ADD CONSTRAINT "events_waitlist_promotion_check" CHECK ("events"."waitlist_promotion" in ('pending', 'automatic'));--> statement-breakpoint
ALTER TABLE "events" ADD CONSTRAINT "events_end_check" CHECK (("events"."end_date" is null) = ("events"."end_time" is null));--> statement-breakpoint
ALTER TABLE "events" ADD CONSTRAINT "events_world_id_check" CHECK ("events"."world_id" ~ '^wrld_[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$');