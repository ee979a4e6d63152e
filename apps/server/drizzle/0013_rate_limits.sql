-- Unlogged: a hit then costs no WAL flush (about 3 ms against 0.3 ms per hit on a PostgreSQL server,
-- docs/architecture.md), and counts that a crash resets only let a caller start a window afresh.
CREATE UNLOGGED TABLE "rate_limits" (
	"key" text PRIMARY KEY NOT NULL,
	"window_start" timestamp with time zone NOT NULL,
	"hits" integer NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE INDEX "rate_limits_expires_idx" ON "rate_limits" USING btree ("expires_at");