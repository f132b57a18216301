CREATE TABLE "event_ratings" (
	"application_id" uuid PRIMARY KEY NOT NULL,
	"event_id" uuid NOT NULL,
	"rating" integer NOT NULL,
	"comment" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "event_ratings_rating_check" CHECK ("event_ratings"."rating" between 1 and 5),
	CONSTRAINT "event_ratings_comment_check" CHECK ("event_ratings"."comment" is null or length("event_ratings"."comment") <= 1000)
);
--> statement-breakpoint
CREATE TABLE "rating_opt_outs" (
	"person_key" text PRIMARY KEY NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "event_applications" ADD COLUMN "rating_asked_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "event_ratings" ADD CONSTRAINT "event_ratings_application_id_event_applications_id_fk" FOREIGN KEY ("application_id") REFERENCES "public"."event_applications"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "event_ratings" ADD CONSTRAINT "event_ratings_event_id_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."events"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "event_ratings_event_id_idx" ON "event_ratings" USING btree ("event_id");