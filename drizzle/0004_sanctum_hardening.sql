CREATE TABLE "sign_in_failures" (
	"key" text PRIMARY KEY NOT NULL,
	"failures" integer NOT NULL,
	"last_failed_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "two_factors" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"secret" text NOT NULL,
	"backup_codes" text NOT NULL,
	"user_id" uuid NOT NULL,
	"verified" boolean DEFAULT true NOT NULL,
	"failed_verification_count" integer DEFAULT 0 NOT NULL,
	"locked_until" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "application_audit_log" DROP CONSTRAINT "application_audit_log_field_check";--> statement-breakpoint
DROP INDEX "applications_vrchat_username_key";--> statement-breakpoint
DROP INDEX "applications_discord_id_key";--> statement-breakpoint
DROP INDEX "event_applications_vrchat_username_key";--> statement-breakpoint
DROP INDEX "event_applications_discord_id_key";--> statement-breakpoint
ALTER TABLE "applications" ADD COLUMN "spam_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "event_applications" ADD COLUMN "spam_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "profiles" ADD COLUMN "password_change_due" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "profiles" ADD COLUMN "two_factor_enabled" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "two_factors" ADD CONSTRAINT "two_factors_user_id_profiles_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."profiles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "two_factors_user_id_key" ON "two_factors" USING btree ("user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "applications_vrchat_username_key" ON "applications" USING btree (lower(btrim("vrchat_username"))) WHERE btrim(coalesce("applications"."vrchat_username", '')) <> '' and "applications"."spam_at" is null;--> statement-breakpoint
CREATE UNIQUE INDEX "applications_discord_id_key" ON "applications" USING btree (lower(btrim("discord_id"))) WHERE btrim(coalesce("applications"."discord_id", '')) <> '' and "applications"."spam_at" is null;--> statement-breakpoint
CREATE UNIQUE INDEX "event_applications_vrchat_username_key" ON "event_applications" USING btree ("event_id",lower(btrim("vrchat_username"))) WHERE btrim(coalesce("event_applications"."vrchat_username", '')) <> '' and "event_applications"."spam_at" is null;--> statement-breakpoint
CREATE UNIQUE INDEX "event_applications_discord_id_key" ON "event_applications" USING btree ("event_id",lower(btrim("discord_id"))) WHERE btrim(coalesce("event_applications"."discord_id", '')) <> '' and "event_applications"."spam_at" is null;--> statement-breakpoint
ALTER TABLE "application_audit_log" ADD CONSTRAINT "application_audit_log_field_check" CHECK ("application_audit_log"."field" in ('status', 'notes', 'spam'));