CREATE TABLE "vrchat_proofs" (
	"application_kind" text NOT NULL,
	"application_id" uuid NOT NULL,
	"vrchat_user_id" text NOT NULL,
	"code" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"proven_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "vrchat_proofs_application_kind_application_id_pk" PRIMARY KEY("application_kind","application_id"),
	CONSTRAINT "vrchat_proofs_kind_check" CHECK ("vrchat_proofs"."application_kind" in ('group', 'event'))
);
--> statement-breakpoint
ALTER TABLE "site_settings" ADD COLUMN "group_requires_proof" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "applications" ADD COLUMN "vrchat_linked_how" text;--> statement-breakpoint
ALTER TABLE "applications" ADD COLUMN "vrchat_linked_by" text;--> statement-breakpoint
ALTER TABLE "event_applications" ADD COLUMN "vrchat_linked_how" text;--> statement-breakpoint
ALTER TABLE "event_applications" ADD COLUMN "vrchat_linked_by" text;--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "requires_proof" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "applications" ADD CONSTRAINT "applications_vrchat_linked_how_check" CHECK ("applications"."vrchat_linked_how" in ('proven', 'name', 'staff'));--> statement-breakpoint
ALTER TABLE "event_applications" ADD CONSTRAINT "event_applications_vrchat_linked_how_check" CHECK ("event_applications"."vrchat_linked_how" in ('proven', 'name', 'staff'));