CREATE TABLE "group_data_cache" (
	"group_id" text PRIMARY KEY NOT NULL,
	"data" jsonb,
	"fetched_at" timestamp with time zone,
	"refresh_lease_until" timestamp with time zone,
	"last_error" text,
	"last_error_at" timestamp with time zone,
	"refreshes" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "job_runs" (
	"name" text PRIMARY KEY NOT NULL,
	"started_at" timestamp with time zone NOT NULL,
	"finished_at" timestamp with time zone,
	"result" jsonb
);
--> statement-breakpoint
CREATE TABLE "vrchat_sessions" (
	"username" text PRIMARY KEY NOT NULL,
	"auth_cookie" text,
	"two_factor_cookie" text,
	"login_failures" integer DEFAULT 0 NOT NULL,
	"login_paused_until" timestamp with time zone,
	"last_login_at" timestamp with time zone,
	"last_error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "vrchat_event_id" text;--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "vrchat_fingerprint" text;--> statement-breakpoint
ALTER TABLE "events" ADD CONSTRAINT "events_vrchat_event_id_unique" UNIQUE("vrchat_event_id");