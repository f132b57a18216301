ALTER TABLE "application_audit_log" DROP CONSTRAINT "application_audit_log_field_check";--> statement-breakpoint
ALTER TABLE "application_questions" DROP CONSTRAINT "application_questions_type_check";--> statement-breakpoint
ALTER TABLE "event_application_questions" DROP CONSTRAINT "event_application_questions_type_check";--> statement-breakpoint
ALTER TABLE "event_application_questions" DROP CONSTRAINT "event_application_questions_options_check";--> statement-breakpoint
ALTER TABLE "site_settings" ADD COLUMN "group_applicant_edits" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "application_questions" ADD COLUMN "help_text" text;--> statement-breakpoint
ALTER TABLE "application_questions" ADD COLUMN "settings" jsonb DEFAULT '{}'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "application_questions" ADD COLUMN "show_if" jsonb;--> statement-breakpoint
ALTER TABLE "applications" ADD COLUMN "answers" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "event_application_questions" ADD COLUMN "help_text" text;--> statement-breakpoint
ALTER TABLE "event_application_questions" ADD COLUMN "settings" jsonb DEFAULT '{}'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "event_application_questions" ADD COLUMN "show_if" jsonb;--> statement-breakpoint
ALTER TABLE "event_applications" ADD COLUMN "answers" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "applicant_edits" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "application_audit_log" ADD CONSTRAINT "application_audit_log_field_check" CHECK ("application_audit_log"."field" in ('status', 'notes', 'spam', 'vrchat', 'discord', 'attendance', 'answers'));--> statement-breakpoint
ALTER TABLE "application_questions" ADD CONSTRAINT "application_questions_type_check" CHECK ("application_questions"."question_type" in ('text', 'textarea', 'select', 'checkboxes', 'yes_no', 'number', 'date', 'agreement', 'link', 'vrchat_profile', 'vrchat_username', 'discord_handle'));--> statement-breakpoint
ALTER TABLE "event_application_questions" ADD CONSTRAINT "event_application_questions_type_check" CHECK ("event_application_questions"."question_type" in ('text', 'textarea', 'select', 'checkboxes', 'yes_no', 'number', 'date', 'agreement', 'link', 'vrchat_profile', 'vrchat_username', 'discord_handle'));--> statement-breakpoint
ALTER TABLE "event_application_questions" ADD CONSTRAINT "event_application_questions_options_check" CHECK ("event_application_questions"."options" is null or ("event_application_questions"."question_type" in ('select', 'checkboxes') and jsonb_typeof("event_application_questions"."options") = 'array'));--> statement-breakpoint
-- Answers kept by question text become answers kept by question: each takes the id and type of the
-- question of that text (the first, in the form's order), in the form's order; an answer whose
-- question is gone keeps its text, with no id.
UPDATE "applications" AS "a" SET "answers" = coalesce((
	SELECT jsonb_agg(jsonb_build_object('questionId', "q"."id", 'question', "r"."key", 'type', coalesce("q"."question_type", 'text'), 'value', "r"."value") ORDER BY "q"."order_index" NULLS LAST, "r"."key")
	FROM jsonb_each_text("a"."responses") AS "r"
	LEFT JOIN LATERAL (
		SELECT "id", "question_type", "order_index" FROM "application_questions"
		WHERE "question" = "r"."key" ORDER BY "order_index", "created_at" LIMIT 1
	) AS "q" ON true
), '[]'::jsonb);--> statement-breakpoint
UPDATE "event_applications" AS "a" SET "answers" = coalesce((
	SELECT jsonb_agg(jsonb_build_object('questionId', "q"."id", 'question', "r"."key", 'type', coalesce("q"."question_type", 'text'), 'value', "r"."value") ORDER BY "q"."order_index" NULLS LAST, "r"."key")
	FROM jsonb_each_text("a"."responses") AS "r"
	LEFT JOIN LATERAL (
		SELECT "id", "question_type", "order_index" FROM "event_application_questions"
		WHERE "event_id" = "a"."event_id" AND "question" = "r"."key" ORDER BY "order_index", "created_at" LIMIT 1
	) AS "q" ON true
), '[]'::jsonb);
