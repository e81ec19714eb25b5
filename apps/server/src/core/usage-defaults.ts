// The usage recorder's defaults, here so that config reads them without importing the pipeline.
/**
 * How often queued usage rows are written (and their reservations settled): the window of
 * completed requests a crash (`kill -9`) can lose, plus the write itself.
 */
export const USAGE_FLUSH_INTERVAL_MS = 250;
/** Rows held while the database cannot take them, by default (RELAY_USAGE_BACKLOG_MAX): some 50 MB at most. */
export const USAGE_BACKLOG_MAX = 50_000;
