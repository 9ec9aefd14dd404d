ALTER TABLE "credit_balance_entries" DROP CONSTRAINT "credit_balance_entries_organization_id_organizations_id_fk";
--> statement-breakpoint
ALTER TABLE "credit_balance_entries" ADD CONSTRAINT "credit_balance_entries_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE restrict ON UPDATE no action;