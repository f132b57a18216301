CREATE TABLE "screening_rules" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"position" integer NOT NULL,
	"scope" text NOT NULL,
	"event_id" uuid,
	"conditions" jsonb NOT NULL,
	"outcome" jsonb NOT NULL,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "screening_rules_scope_check" CHECK ("screening_rules"."scope" in ('group', 'events', 'event')),
	CONSTRAINT "screening_rules_event_check" CHECK (("screening_rules"."scope" = 'event') = ("screening_rules"."event_id" is not null))
);
--> statement-breakpoint
CREATE TABLE "screenings" (
	"application_kind" text NOT NULL,
	"application_id" uuid NOT NULL,
	"state" text DEFAULT 'queued' NOT NULL,
	"next_attempt_at" timestamp with time zone DEFAULT now() NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"locked_until" timestamp with time zone,
	"rule_name" text,
	"outcome" text,
	"flag" text,
	"facts" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "screenings_application_kind_application_id_pk" PRIMARY KEY("application_kind","application_id"),
	CONSTRAINT "screenings_kind_check" CHECK ("screenings"."application_kind" in ('group', 'event')),
	CONSTRAINT "screenings_state_check" CHECK ("screenings"."state" in ('queued', 'waiting', 'done'))
);
--> statement-breakpoint
ALTER TABLE "screening_rules" ADD CONSTRAINT "screening_rules_event_id_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."events"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "screening_rules" ADD CONSTRAINT "screening_rules_created_by_profiles_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."profiles"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "screening_rules_name_key" ON "screening_rules" USING btree (lower(btrim("name")));--> statement-breakpoint
CREATE INDEX "screening_rules_position_idx" ON "screening_rules" USING btree ("position");--> statement-breakpoint
CREATE INDEX "screenings_due_idx" ON "screenings" USING btree ("next_attempt_at") WHERE "screenings"."state" <> 'done';