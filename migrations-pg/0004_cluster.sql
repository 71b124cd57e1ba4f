-- What several Cairn instances on one database share (issue 46), which one instance keeps in its
-- primary's memory on SQLite: these tables exist on PostgreSQL only, and `cairn migrate-to-postgres`
-- copies nothing into them (src/db/pg/cluster-tables.ts).
--   realtime_channels  each team's last realtime event id: an event is numbered and notified in one
--                      transaction (src/context/pg-realtime.ts), so ids follow commit order, which
--                      is the order LISTEN delivers them in.
--   window_hits        the named window limits' counts (src/access/window-limit.pg.ts); losing them
--                      in a crash only resets the windows, hence UNLOGGED.
--   job_ticks          the last tick of each scheduled job some instance claimed (src/jobs/job-ticks.ts).
--   cluster_messages   cluster notices too long for a NOTIFY payload, notified by id
--                      (src/context/pg-cluster.ts); read within moments, then purged.
CREATE TABLE "realtime_channels" (
	"team_id" text COLLATE "C" PRIMARY KEY,
	"last_id" bigint NOT NULL
);
CREATE UNLOGGED TABLE "window_hits" (
	"name" text COLLATE "C" NOT NULL,
	"key" text COLLATE "C" NOT NULL,
	"window_start" bigint NOT NULL,
	"count" bigint NOT NULL,
	"expires_at" bigint NOT NULL,
	PRIMARY KEY ("name", "key")
);
CREATE INDEX "window_hits_expires_at_idx" ON "window_hits" ("expires_at");
CREATE TABLE "job_ticks" (
	"name" text COLLATE "C" PRIMARY KEY,
	"tick" bigint NOT NULL
);
CREATE UNLOGGED TABLE "cluster_messages" (
	"id" bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
	"body" text COLLATE "C" NOT NULL,
	"created_at" bigint NOT NULL
);
CREATE INDEX "cluster_messages_created_at_idx" ON "cluster_messages" ("created_at");
