CREATE TABLE "group_samples" (
	"resolution" text NOT NULL,
	"bucket" timestamp with time zone NOT NULL,
	"member_count" integer NOT NULL,
	"online_count" integer NOT NULL,
	"readings" integer DEFAULT 1 NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "group_samples_resolution_bucket_pk" PRIMARY KEY("resolution","bucket"),
	CONSTRAINT "group_samples_resolution_check" CHECK ("group_samples"."resolution" in ('minute', 'hour', 'day'))
);
--> statement-breakpoint
ALTER TABLE "event_applications" DROP CONSTRAINT "event_applications_status_check";--> statement-breakpoint
ALTER TABLE "event_applications" ADD CONSTRAINT "event_applications_status_check" CHECK ("event_applications"."status" in ('pending', 'approved', 'rejected', 'waitlist'));