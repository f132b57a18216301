ALTER TABLE "applications" ADD COLUMN "vrchat_profile_check" text;--> statement-breakpoint
ALTER TABLE "two_factors" ADD COLUMN "last_totp_step" integer;