CREATE TABLE "announcement_history" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"announcement_id" uuid NOT NULL,
	"actor_id" uuid,
	"actor_name" text NOT NULL,
	"change" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "announcement_pictures" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"type" text NOT NULL,
	"data" "bytea" NOT NULL,
	"width" integer NOT NULL,
	"height" integer NOT NULL,
	"vrchat_file_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "announcement_pictures_type_check" CHECK ("announcement_pictures"."type" in ('image/png', 'image/jpeg', 'image/webp'))
);
--> statement-breakpoint
CREATE TABLE "announcement_places" (
	"announcement_id" uuid NOT NULL,
	"place" text NOT NULL,
	"wanted" boolean DEFAULT true NOT NULL,
	"state" text DEFAULT 'waiting' NOT NULL,
	"external_id" text,
	"url" text,
	"synced_version" integer DEFAULT 0 NOT NULL,
	"synced_picture_id" uuid,
	"create_attempted_at" timestamp with time zone,
	"last_error" text,
	"busy_until" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "announcement_places_announcement_id_place_pk" PRIMARY KEY("announcement_id","place"),
	CONSTRAINT "announcement_places_place_check" CHECK ("announcement_places"."place" in ('site', 'vrchat', 'discord')),
	CONSTRAINT "announcement_places_state_check" CHECK ("announcement_places"."state" in ('waiting', 'published', 'failed', 'removed', 'gone'))
);
--> statement-breakpoint
CREATE TABLE "announcements" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"texts" jsonb NOT NULL,
	"audience" text DEFAULT 'everyone' NOT NULL,
	"vrchat_role_ids" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"notify_members" boolean DEFAULT false NOT NULL,
	"discord_role_id" text,
	"picture_id" uuid,
	"event_id" uuid,
	"publish_at" timestamp with time zone,
	"version" integer DEFAULT 1 NOT NULL,
	"deleted_at" timestamp with time zone,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "announcements_audience_check" CHECK ("announcements"."audience" in ('everyone', 'members'))
);
--> statement-breakpoint
ALTER TABLE "outbox" DROP CONSTRAINT "outbox_target_check";--> statement-breakpoint
ALTER TABLE "site_settings" ADD COLUMN "announce_role_ids" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "announcement_history" ADD CONSTRAINT "announcement_history_actor_id_profiles_id_fk" FOREIGN KEY ("actor_id") REFERENCES "public"."profiles"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "announcement_places" ADD CONSTRAINT "announcement_places_announcement_id_announcements_id_fk" FOREIGN KEY ("announcement_id") REFERENCES "public"."announcements"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "announcements" ADD CONSTRAINT "announcements_picture_id_announcement_pictures_id_fk" FOREIGN KEY ("picture_id") REFERENCES "public"."announcement_pictures"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "announcements" ADD CONSTRAINT "announcements_event_id_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."events"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "announcements" ADD CONSTRAINT "announcements_created_by_profiles_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."profiles"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "announcement_history_announcement_idx" ON "announcement_history" USING btree ("announcement_id","created_at");--> statement-breakpoint
CREATE INDEX "announcements_publish_at_idx" ON "announcements" USING btree ("publish_at" DESC NULLS LAST) WHERE "announcements"."deleted_at" is null;--> statement-breakpoint
ALTER TABLE "outbox" ADD CONSTRAINT "outbox_target_check" CHECK ("outbox"."target" in ('telegram', 'google_sheets', 'discord', 'vrchat_membership', 'discord_role', 'discord_dm', 'vrchat_calendar', 'discord_review', 'discord_announcement', 'vrchat_event_role', 'vrchat_ban', 'discord_ban', 'vrchat_post', 'discord_post'));