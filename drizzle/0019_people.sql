CREATE TABLE "person_merges" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"person_key" text NOT NULL,
	"into_key" text NOT NULL,
	"merged_by" text NOT NULL,
	"merged_by_id" uuid,
	"merged_at" timestamp with time zone DEFAULT now() NOT NULL,
	"split_at" timestamp with time zone,
	"split_by" text
);
--> statement-breakpoint
CREATE TABLE "person_notes" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"person_key" text NOT NULL,
	"body" text NOT NULL,
	"author_id" uuid,
	"author_name" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "person_merges" ADD CONSTRAINT "person_merges_merged_by_id_profiles_id_fk" FOREIGN KEY ("merged_by_id") REFERENCES "public"."profiles"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "person_notes" ADD CONSTRAINT "person_notes_author_id_profiles_id_fk" FOREIGN KEY ("author_id") REFERENCES "public"."profiles"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "person_merges_in_force_key" ON "person_merges" USING btree ("person_key") WHERE "person_merges"."split_at" is null;--> statement-breakpoint
CREATE INDEX "person_merges_into_idx" ON "person_merges" USING btree ("into_key");--> statement-breakpoint
CREATE INDEX "person_notes_key_idx" ON "person_notes" USING btree ("person_key","created_at");--> statement-breakpoint
CREATE INDEX "applications_vrchat_user_idx" ON "applications" USING btree ("vrchat_user_id");--> statement-breakpoint
CREATE INDEX "applications_discord_user_idx" ON "applications" USING btree ("discord_user_id");--> statement-breakpoint
CREATE INDEX "event_applications_vrchat_user_idx" ON "event_applications" USING btree ("vrchat_user_id");--> statement-breakpoint
CREATE INDEX "event_applications_discord_user_idx" ON "event_applications" USING btree ("discord_user_id");