import type { StoredResponseLimits } from '../../../src/storage/types';

/** Bounds on stored responses that a spec not about them never reaches (`now`: the suites' fixed time). */
export const ROOMY: StoredResponseLimits = { now: '2026-03-01T12:00:00.000Z', maxBytes: Number.MAX_SAFE_INTEGER, maxCount: 1_000_000 };
