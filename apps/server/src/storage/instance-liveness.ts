/**
 * How instances sharing a database tell the living from the dead: each marks itself alive every
 * `HEARTBEAT_EVERY_MS`; one silent for `INSTANCE_STALE_MS` (three missed beats) is taken for dead,
 * and what it still holds of the quota is given back by the others.
 */
export const HEARTBEAT_EVERY_MS = 10_000;
export const INSTANCE_STALE_MS = 30_000;
