ALTER TABLE "applications" ADD COLUMN "language" text;--> statement-breakpoint
ALTER TABLE "event_applications" ADD COLUMN "language" text;