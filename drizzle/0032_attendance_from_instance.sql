CREATE TABLE "instance_minutes" (
	"event_id" uuid NOT NULL,
	"minute" timestamp with time zone NOT NULL,
	"people" integer,
	CONSTRAINT "instance_minutes_event_id_minute_pk" PRIMARY KEY("event_id","minute")
);
--> statement-breakpoint
CREATE TABLE "instance_presence" (
	"event_id" uuid NOT NULL,
	"user_id" text NOT NULL,
	"display_name" text NOT NULL,
	"first_seen_at" timestamp with time zone NOT NULL,
	"last_seen_at" timestamp with time zone NOT NULL,
	"minutes_seen" integer DEFAULT 1 NOT NULL,
	CONSTRAINT "instance_presence_event_id_user_id_pk" PRIMARY KEY("event_id","user_id")
);
--> statement-breakpoint
ALTER TABLE "event_applications" ADD COLUMN "attendance_source" text;--> statement-breakpoint
ALTER TABLE "event_instances" ADD COLUMN "last_read_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "event_instances" ADD COLUMN "attendance_marked_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "event_instances" ADD COLUMN "attendance_note" text;--> statement-breakpoint
ALTER TABLE "instance_minutes" ADD CONSTRAINT "instance_minutes_event_id_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."events"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "instance_presence" ADD CONSTRAINT "instance_presence_event_id_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."events"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "event_applications" ADD CONSTRAINT "event_applications_attendance_source_check" CHECK ("event_applications"."attendance_source" in ('instance', 'staff'));--> statement-breakpoint
UPDATE "event_applications" SET "attendance_source" = 'staff' WHERE "attendance" IS NOT NULL;