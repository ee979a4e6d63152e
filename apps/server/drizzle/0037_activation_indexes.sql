CREATE INDEX "activation_sends_finished_idx" ON "activation_sends" USING btree ("space_id","scene_id","finished_at");--> statement-breakpoint
CREATE INDEX "activation_sends_created_idx" ON "activation_sends" USING btree ("space_id","scene_id","created_at" DESC NULLS FIRST,"customer_id");--> statement-breakpoint
CREATE INDEX "activation_sends_event_created_idx" ON "activation_sends" USING btree ("event_id","created_at" DESC NULLS FIRST,"customer_id");--> statement-breakpoint
CREATE INDEX "activation_sends_state_idx" ON "activation_sends" USING btree ("event_id","state");