CREATE TABLE "decision_messages" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"kind" text NOT NULL,
	"event_id" uuid,
	"outcome" text NOT NULL,
	"body" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "decision_messages_key" UNIQUE NULLS NOT DISTINCT("kind","event_id","outcome"),
	CONSTRAINT "decision_messages_kind_check" CHECK ("decision_messages"."kind" in ('group', 'event')),
	CONSTRAINT "decision_messages_outcome_check" CHECK ("decision_messages"."outcome" in ('approved', 'rejected')),
	CONSTRAINT "decision_messages_event_check" CHECK ("decision_messages"."kind" = 'event' or "decision_messages"."event_id" is null)
);
--> statement-breakpoint
ALTER TABLE "application_audit_log" DROP CONSTRAINT "application_audit_log_field_check";--> statement-breakpoint
ALTER TABLE "application_questions" DROP CONSTRAINT "application_questions_type_check";--> statement-breakpoint
ALTER TABLE "event_application_questions" DROP CONSTRAINT "event_application_questions_type_check";--> statement-breakpoint
ALTER TABLE "outbox" DROP CONSTRAINT "outbox_target_check";--> statement-breakpoint
ALTER TABLE "applications" ADD COLUMN "status_token_hash" text;--> statement-breakpoint
ALTER TABLE "applications" ADD COLUMN "decision_message" text;--> statement-breakpoint
ALTER TABLE "applications" ADD COLUMN "discord_user_id" text;--> statement-breakpoint
ALTER TABLE "applications" ADD COLUMN "discord_display_name" text;--> statement-breakpoint
ALTER TABLE "applications" ADD COLUMN "vrchat_user_id" text;--> statement-breakpoint
ALTER TABLE "applications" ADD COLUMN "vrchat_display_name" text;--> statement-breakpoint
ALTER TABLE "event_applications" ADD COLUMN "status_token_hash" text;--> statement-breakpoint
ALTER TABLE "event_applications" ADD COLUMN "decision_message" text;--> statement-breakpoint
ALTER TABLE "event_applications" ADD COLUMN "discord_user_id" text;--> statement-breakpoint
ALTER TABLE "event_applications" ADD COLUMN "discord_display_name" text;--> statement-breakpoint
ALTER TABLE "outbox" ADD COLUMN "result" text;--> statement-breakpoint
ALTER TABLE "decision_messages" ADD CONSTRAINT "decision_messages_event_id_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."events"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "applications" ADD CONSTRAINT "applications_status_token_hash_key" UNIQUE("status_token_hash");--> statement-breakpoint
ALTER TABLE "event_applications" ADD CONSTRAINT "event_applications_status_token_hash_key" UNIQUE("status_token_hash");--> statement-breakpoint
ALTER TABLE "application_audit_log" ADD CONSTRAINT "application_audit_log_field_check" CHECK ("application_audit_log"."field" in ('status', 'notes', 'spam', 'vrchat', 'discord'));--> statement-breakpoint
ALTER TABLE "application_questions" ADD CONSTRAINT "application_questions_type_check" CHECK ("application_questions"."question_type" in ('text', 'textarea', 'select', 'vrchat_profile'));--> statement-breakpoint
ALTER TABLE "event_application_questions" ADD CONSTRAINT "event_application_questions_type_check" CHECK ("event_application_questions"."question_type" in ('text', 'textarea', 'select', 'vrchat_profile'));--> statement-breakpoint
ALTER TABLE "outbox" ADD CONSTRAINT "outbox_target_check" CHECK ("outbox"."target" in ('telegram', 'google_sheets', 'discord', 'vrchat_membership', 'discord_role', 'discord_dm'));