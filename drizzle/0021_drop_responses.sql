ALTER TABLE "applications" DROP COLUMN "responses";--> statement-breakpoint
ALTER TABLE "event_applications" DROP COLUMN "responses";