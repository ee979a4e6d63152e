DROP INDEX "profile_values_field_number_idx";--> statement-breakpoint
DROP INDEX "profile_values_field_date_idx";--> statement-breakpoint
CREATE INDEX "profile_values_field_number_idx" ON "profile_values" USING btree ("field_id","value_number","customer_id") WHERE value_number is not null;--> statement-breakpoint
CREATE INDEX "profile_values_field_date_idx" ON "profile_values" USING btree ("field_id","value_date","customer_id") WHERE value_date is not null;