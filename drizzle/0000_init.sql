CREATE TABLE "accounts" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"account_id" text NOT NULL,
	"provider_id" text NOT NULL,
	"user_id" uuid NOT NULL,
	"access_token" text,
	"refresh_token" text,
	"id_token" text,
	"access_token_expires_at" timestamp with time zone,
	"refresh_token_expires_at" timestamp with time zone,
	"scope" text,
	"password" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "application_audit_log" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"application_kind" text NOT NULL,
	"application_id" uuid NOT NULL,
	"actor_id" uuid,
	"actor_name" text NOT NULL,
	"field" text NOT NULL,
	"from_value" text,
	"to_value" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "application_audit_log_kind_check" CHECK ("application_audit_log"."application_kind" in ('group', 'event')),
	CONSTRAINT "application_audit_log_field_check" CHECK ("application_audit_log"."field" in ('status', 'notes'))
);
--> statement-breakpoint
CREATE TABLE "application_questions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"question" text NOT NULL,
	"question_type" text DEFAULT 'text' NOT NULL,
	"options" jsonb,
	"required" boolean DEFAULT true NOT NULL,
	"order_index" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "application_questions_type_check" CHECK ("application_questions"."question_type" in ('text', 'textarea', 'select')),
	CONSTRAINT "application_questions_options_check" CHECK ("application_questions"."options" is null or jsonb_typeof("application_questions"."options") = 'array')
);
--> statement-breakpoint
CREATE TABLE "applications" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"vrchat_username" text DEFAULT '' NOT NULL,
	"discord_id" text DEFAULT '' NOT NULL,
	"responses" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"submitted_at" timestamp with time zone DEFAULT now() NOT NULL,
	"reviewed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "applications_status_check" CHECK ("applications"."status" in ('pending', 'approved', 'rejected'))
);
--> statement-breakpoint
CREATE TABLE "event_application_questions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"question" text NOT NULL,
	"question_type" text DEFAULT 'text' NOT NULL,
	"options" jsonb,
	"required" boolean DEFAULT true NOT NULL,
	"order_index" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"event_id" uuid NOT NULL,
	CONSTRAINT "event_application_questions_type_check" CHECK ("event_application_questions"."question_type" in ('text', 'textarea', 'select')),
	CONSTRAINT "event_application_questions_options_check" CHECK ("event_application_questions"."options" is null or ("event_application_questions"."question_type" = 'select' and jsonb_typeof("event_application_questions"."options") = 'array'))
);
--> statement-breakpoint
CREATE TABLE "event_applications" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"event_id" uuid NOT NULL,
	"vrchat_username" text DEFAULT '' NOT NULL,
	"discord_id" text DEFAULT '',
	"responses" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"submitted_at" timestamp with time zone DEFAULT now() NOT NULL,
	"reviewed_at" timestamp with time zone,
	"notes" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "event_applications_status_check" CHECK ("event_applications"."status" in ('pending', 'approved', 'rejected'))
);
--> statement-breakpoint
CREATE TABLE "events" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"title" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"event_date" date NOT NULL,
	"event_time" time NOT NULL,
	"timezone" text DEFAULT 'UTC' NOT NULL,
	"world_name" text NOT NULL,
	"application_required" boolean DEFAULT false NOT NULL,
	"application_deadline" timestamp with time zone,
	"max_attendees" integer,
	"application_instructions" text,
	"featured" boolean DEFAULT false NOT NULL,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "events_timezone_check" CHECK ("events"."timezone" in ('UTC', 'EST', 'EDT', 'CST', 'CDT', 'MST', 'MDT', 'PST', 'PDT')),
	CONSTRAINT "events_max_attendees_check" CHECK ("events"."max_attendees" >= 1),
	CONSTRAINT "events_title_check" CHECK (btrim("events"."title") <> '')
);
--> statement-breakpoint
CREATE TABLE "outbox" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"target" text NOT NULL,
	"payload" jsonb NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone DEFAULT now() NOT NULL,
	"locked_until" timestamp with time zone,
	"last_error" text,
	"delivered_at" timestamp with time zone,
	"source_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "outbox_target_check" CHECK ("outbox"."target" in ('telegram', 'google_sheets', 'discord')),
	CONSTRAINT "outbox_status_check" CHECK ("outbox"."status" in ('pending', 'delivered', 'failed'))
);
--> statement-breakpoint
CREATE TABLE "profiles" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"username" text NOT NULL,
	"email" text NOT NULL,
	"email_verified" boolean DEFAULT false NOT NULL,
	"image" text,
	"role" text DEFAULT 'member' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "profiles_email_unique" UNIQUE("email"),
	CONSTRAINT "profiles_role_check" CHECK ("profiles"."role" in ('admin', 'member'))
);
--> statement-breakpoint
CREATE TABLE "rate_limits" (
	"key" text NOT NULL,
	"window_start" timestamp with time zone NOT NULL,
	"count" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "rate_limits_key_window_start_pk" PRIMARY KEY("key","window_start")
);
--> statement-breakpoint
CREATE TABLE "sessions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"token" text NOT NULL,
	"user_id" uuid NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"ip_address" text,
	"user_agent" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "sessions_token_unique" UNIQUE("token")
);
--> statement-breakpoint
CREATE TABLE "verifications" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"identifier" text NOT NULL,
	"value" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "accounts" ADD CONSTRAINT "accounts_user_id_profiles_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."profiles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "application_audit_log" ADD CONSTRAINT "application_audit_log_actor_id_profiles_id_fk" FOREIGN KEY ("actor_id") REFERENCES "public"."profiles"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "event_application_questions" ADD CONSTRAINT "event_application_questions_event_id_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."events"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "event_applications" ADD CONSTRAINT "event_applications_event_id_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."events"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "events" ADD CONSTRAINT "events_created_by_profiles_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."profiles"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sessions" ADD CONSTRAINT "sessions_user_id_profiles_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."profiles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "accounts_user_idx" ON "accounts" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "application_audit_log_application_idx" ON "application_audit_log" USING btree ("application_id","created_at");--> statement-breakpoint
CREATE INDEX "application_questions_order_idx" ON "application_questions" USING btree ("order_index");--> statement-breakpoint
CREATE UNIQUE INDEX "applications_vrchat_username_key" ON "applications" USING btree (lower(btrim("vrchat_username"))) WHERE btrim(coalesce("applications"."vrchat_username", '')) <> '';--> statement-breakpoint
CREATE UNIQUE INDEX "applications_discord_id_key" ON "applications" USING btree (lower(btrim("discord_id"))) WHERE btrim(coalesce("applications"."discord_id", '')) <> '';--> statement-breakpoint
CREATE INDEX "applications_submitted_at_idx" ON "applications" USING btree ("submitted_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "applications_status_idx" ON "applications" USING btree ("status");--> statement-breakpoint
CREATE INDEX "event_application_questions_event_order_idx" ON "event_application_questions" USING btree ("event_id","order_index");--> statement-breakpoint
CREATE UNIQUE INDEX "event_applications_vrchat_username_key" ON "event_applications" USING btree ("event_id",lower(btrim("vrchat_username"))) WHERE btrim(coalesce("event_applications"."vrchat_username", '')) <> '';--> statement-breakpoint
CREATE UNIQUE INDEX "event_applications_discord_id_key" ON "event_applications" USING btree ("event_id",lower(btrim("discord_id"))) WHERE btrim(coalesce("event_applications"."discord_id", '')) <> '';--> statement-breakpoint
CREATE INDEX "event_applications_event_submitted_idx" ON "event_applications" USING btree ("event_id","submitted_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "event_applications_event_status_idx" ON "event_applications" USING btree ("event_id","status");--> statement-breakpoint
CREATE INDEX "events_schedule_idx" ON "events" USING btree ("event_date","event_time");--> statement-breakpoint
CREATE INDEX "events_featured_idx" ON "events" USING btree ("event_date","event_time") WHERE "events"."featured";--> statement-breakpoint
CREATE INDEX "outbox_due_idx" ON "outbox" USING btree ("next_attempt_at") WHERE "outbox"."status" = 'pending';--> statement-breakpoint
CREATE INDEX "outbox_status_idx" ON "outbox" USING btree ("status","updated_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "sessions_user_idx" ON "sessions" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "verifications_identifier_idx" ON "verifications" USING btree ("identifier");