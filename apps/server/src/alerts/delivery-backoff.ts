/**
 * When a failed delivery is tried again: 5 s, 30 s, 2 min, 10 min, 1 h, 6 h after the attempts
 * so far (with the default 5 s first step), the last step repeating; `firstDelayMs` scales the
 * whole schedule (a spec makes it milliseconds). After `maxAttempts` the delivery has failed.
 */
const STEPS: readonly number[] = [1, 6, 24, 120, 720, 4_320];
const LAST_STEP = 4_320;

/** The wait after the `attempts`-th failed attempt (1 = the first). */
export function retryDelayMs(attempts: number, firstDelayMs: number): number {
  const step = STEPS[Math.max(attempts, 1) - 1] ?? LAST_STEP;
  return step * firstDelayMs;
}

export interface DeliveryPolicy {
  /** Attempts in all, the first included (RELAY_WEBHOOK_MAX_ATTEMPTS). */
  maxAttempts: number;
  /** The first retry's wait (RELAY_WEBHOOK_RETRY_MS); the later ones grow from it. */
  firstDelayMs: number;
}

/** When to try again after `attempts` failed, or null: no attempt left. */
export function nextAttemptAt(attempts: number, nowMs: number, policy: DeliveryPolicy): number | null {
  return attempts >= policy.maxAttempts ? null : nowMs + retryDelayMs(attempts, policy.firstDelayMs);
}
