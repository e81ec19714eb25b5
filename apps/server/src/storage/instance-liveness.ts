/** How often an instance sharing the database says it is alive. */
export const HEARTBEAT_EVERY_MS = 10_000;
/** Silent this long, an instance is taken for dead and its unsettled reservations are given back. */
export const INSTANCE_STALE_MS = 30_000;
