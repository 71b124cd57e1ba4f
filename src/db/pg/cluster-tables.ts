/**
 * The tables only the PostgreSQL schema has (migrations-pg/0004_cluster.sql): what several
 * instances share, which one instance keeps in its primary's memory on SQLite. Nothing copies
 * them from SQLite, and the schemas' comparison leaves them out.
 */
export const PG_ONLY_TABLES = ["realtime_channels", "window_hits", "job_ticks", "cluster_messages"] as const;
