CREATE TABLE "site_milestones" (
	"name" text PRIMARY KEY NOT NULL,
	"reached_at" timestamp with time zone DEFAULT now() NOT NULL,
	"detail" jsonb
);
--> statement-breakpoint
-- A database in use before this table existed has had its first start (demo content or not):
-- record it, so that starting the new version never seeds demo events into it.
INSERT INTO "site_milestones" ("name", "detail")
SELECT 'first-start', '{"demoContent": null, "recordedBy": "migration"}'::jsonb
WHERE EXISTS (SELECT 1 FROM "events") OR EXISTS (SELECT 1 FROM "application_questions")
   OR EXISTS (SELECT 1 FROM "applications") OR EXISTS (SELECT 1 FROM "event_applications")
   OR EXISTS (SELECT 1 FROM "profiles");
