ALTER TABLE "decision_messages" DROP CONSTRAINT "decision_messages_key";--> statement-breakpoint
ALTER TABLE "applications" ADD COLUMN "decision_message_language" text;--> statement-breakpoint
ALTER TABLE "decision_messages" ADD COLUMN "language" text DEFAULT 'en' NOT NULL;--> statement-breakpoint
ALTER TABLE "event_applications" ADD COLUMN "decision_message_language" text;--> statement-breakpoint
ALTER TABLE "decision_messages" ADD CONSTRAINT "decision_messages_key" UNIQUE NULLS NOT DISTINCT("kind","event_id","outcome","language");