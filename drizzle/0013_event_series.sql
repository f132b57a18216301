CREATE TABLE "event_series" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"frequency" text NOT NULL,
	"anchor_index" integer DEFAULT 0 NOT NULL,
	"anchor_date" date NOT NULL,
	"until_date" date,
	"occurrence_count" integer,
	"made_count" integer DEFAULT 0 NOT NULL,
	"template" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "event_series_frequency_check" CHECK ("event_series"."frequency" in ('weekly', 'biweekly', 'monthly')),
	CONSTRAINT "event_series_end_check" CHECK (("event_series"."until_date" is null) <> ("event_series"."occurrence_count" is null)),
	CONSTRAINT "event_series_count_check" CHECK ("event_series"."occurrence_count" >= 0)
);
--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "series_id" uuid;--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "series_index" integer;--> statement-breakpoint
ALTER TABLE "events" ADD CONSTRAINT "events_series_id_event_series_id_fk" FOREIGN KEY ("series_id") REFERENCES "public"."event_series"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "events_series_occurrence_key" ON "events" USING btree ("series_id","series_index");--> statement-breakpoint
ALTER TABLE "events" ADD CONSTRAINT "events_series_check" CHECK ("events"."series_id" is null or "events"."series_index" >= 0);