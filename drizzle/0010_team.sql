CREATE TABLE "discord_review_messages" (
	"application_kind" text NOT NULL,
	"application_id" uuid NOT NULL,
	"channel_id" text NOT NULL,
	"message_id" text NOT NULL,
	"embed" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "discord_review_messages_application_kind_application_id_pk" PRIMARY KEY("application_kind","application_id")
);
--> statement-breakpoint
CREATE TABLE "role_policies" (
	"role" text PRIMARY KEY NOT NULL,
	"require_two_factor" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "role_policies_role_check" CHECK ("role_policies"."role" in ('owner', 'admin', 'reviewer', 'host'))
);
--> statement-breakpoint
CREATE TABLE "team_history" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"actor_id" uuid,
	"actor_name" text NOT NULL,
	"change" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "team_invitations" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"email" text NOT NULL,
	"role" text NOT NULL,
	"token_hash" text NOT NULL,
	"invited_by" uuid,
	"expires_at" timestamp with time zone NOT NULL,
	"closed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "team_invitations_token_hash_key" UNIQUE("token_hash"),
	CONSTRAINT "team_invitations_role_check" CHECK ("team_invitations"."role" in ('owner', 'admin', 'reviewer', 'host'))
);
--> statement-breakpoint
ALTER TABLE "outbox" DROP CONSTRAINT "outbox_target_check";--> statement-breakpoint
ALTER TABLE "profiles" DROP CONSTRAINT "profiles_role_check";--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "host_id" uuid;--> statement-breakpoint
ALTER TABLE "profiles" ADD COLUMN "last_sign_in_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "profiles" ADD COLUMN "discord_user_id" text;--> statement-breakpoint
ALTER TABLE "team_history" ADD CONSTRAINT "team_history_actor_id_profiles_id_fk" FOREIGN KEY ("actor_id") REFERENCES "public"."profiles"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "team_invitations" ADD CONSTRAINT "team_invitations_invited_by_profiles_id_fk" FOREIGN KEY ("invited_by") REFERENCES "public"."profiles"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "team_history_created_at_idx" ON "team_history" USING btree ("created_at" DESC NULLS LAST);--> statement-breakpoint
ALTER TABLE "events" ADD CONSTRAINT "events_host_id_profiles_id_fk" FOREIGN KEY ("host_id") REFERENCES "public"."profiles"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "profiles" ADD CONSTRAINT "profiles_discord_user_id_key" UNIQUE("discord_user_id");--> statement-breakpoint
ALTER TABLE "outbox" ADD CONSTRAINT "outbox_target_check" CHECK ("outbox"."target" in ('telegram', 'google_sheets', 'discord', 'vrchat_membership', 'discord_role', 'discord_dm', 'vrchat_calendar', 'discord_review'));--> statement-breakpoint
ALTER TABLE "profiles" ADD CONSTRAINT "profiles_role_check" CHECK ("profiles"."role" in ('owner', 'admin', 'reviewer', 'host', 'member'));--> statement-breakpoint
-- The admins of the one-admin Sanctum become the team's owners; an event's host is its creator.
UPDATE "profiles" SET "role" = 'owner' WHERE "role" = 'admin';--> statement-breakpoint
UPDATE "events" SET "host_id" = "created_by" WHERE "host_id" IS NULL;
