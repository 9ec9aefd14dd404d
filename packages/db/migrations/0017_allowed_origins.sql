CREATE TABLE "allowed_origins" (
	"organization_id" uuid NOT NULL,
	"environment" text NOT NULL,
	"origins" text[] DEFAULT '{}'::text[] NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "allowed_origins_organization_id_environment_pk" PRIMARY KEY("organization_id","environment"),
	CONSTRAINT "allowed_origins_environment_check" CHECK ("allowed_origins"."environment" in ('live', 'test')),
	CONSTRAINT "allowed_origins_count_check" CHECK (cardinality("allowed_origins"."origins") <= 10)
);
--> statement-breakpoint
ALTER TABLE "allowed_origins" ADD CONSTRAINT "allowed_origins_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;