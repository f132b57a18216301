CREATE TABLE "join_requests" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"vrchat_user_id" text NOT NULL,
	"display_name" text NOT NULL,
	"thumbnail_url" text,
	"requested_at" timestamp with time zone,
	"last_seen_at" timestamp with time zone DEFAULT now() NOT NULL,
	"gone_at" timestamp with time zone,
	"decision" text,
	"block" boolean DEFAULT false NOT NULL,
	"decided_by" text,
	"decided_by_id" uuid,
	"decided_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "join_requests_decision_check" CHECK ("join_requests"."decision" is null or "join_requests"."decision" in ('accept', 'reject'))
);
--> statement-breakpoint
ALTER TABLE "application_audit_log" DROP CONSTRAINT "application_audit_log_kind_check";--> statement-breakpoint
ALTER TABLE "screenings" DROP CONSTRAINT "screenings_kind_check";--> statement-breakpoint
ALTER TABLE "site_settings" ADD COLUMN "join_requests_by_rules" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "join_requests" ADD CONSTRAINT "join_requests_decided_by_id_profiles_id_fk" FOREIGN KEY ("decided_by_id") REFERENCES "public"."profiles"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "join_requests_user_key" ON "join_requests" USING btree ("vrchat_user_id");--> statement-breakpoint
CREATE INDEX "join_requests_waiting_idx" ON "join_requests" USING btree ("requested_at") WHERE "join_requests"."gone_at" is null;--> statement-breakpoint
ALTER TABLE "application_audit_log" ADD CONSTRAINT "application_audit_log_kind_check" CHECK ("application_audit_log"."application_kind" in ('group', 'event', 'join_request'));--> statement-breakpoint
ALTER TABLE "screenings" ADD CONSTRAINT "screenings_kind_check" CHECK ("screenings"."application_kind" in ('group', 'event', 'join_request'));