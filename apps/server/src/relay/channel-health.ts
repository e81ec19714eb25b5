export interface CircuitOptions {
  /** Consecutive failures that open the circuit. */
  failureThreshold?: number;
  /** How long an open circuit keeps the channel out of rotation. */
  coolDownMs?: number;
}

interface CircuitState {
  consecutiveFailures: number;
  openUntil: number;
  trialInFlight: boolean;
}

/**
 * One circuit breaker per channel (SPEC §6): consecutive failures open it for a cool-down;
 * after that a single trial request is let through, and its outcome closes or reopens it.
 */
export class ChannelHealth {
  private readonly states = new Map<number, CircuitState>();
  private readonly failureThreshold: number;
  private readonly coolDownMs: number;

  constructor(options: CircuitOptions = {}, private readonly now: () => number = Date.now) {
    this.failureThreshold = options.failureThreshold ?? 3;
    this.coolDownMs = options.coolDownMs ?? 30_000;
  }

  isAvailable(channelId: number): boolean {
    const state = this.states.get(channelId);
    if (!state || state.consecutiveFailures < this.failureThreshold) return true;
    return this.now() >= state.openUntil && !state.trialInFlight;
  }

  /** Call when a request is sent, so only one trial passes a half-open circuit. */
  markAttempt(channelId: number): void {
    const state = this.states.get(channelId);
    if (state && state.consecutiveFailures >= this.failureThreshold) state.trialInFlight = true;
  }

  recordSuccess(channelId: number): void {
    this.states.delete(channelId);
  }

  recordFailure(channelId: number): void {
    const state = this.states.get(channelId) ?? { consecutiveFailures: 0, openUntil: 0, trialInFlight: false };
    state.consecutiveFailures += 1;
    state.trialInFlight = false;
    if (state.consecutiveFailures >= this.failureThreshold) state.openUntil = this.now() + this.coolDownMs;
    this.states.set(channelId, state);
  }

  forget(channelId: number): void {
    this.states.delete(channelId);
  }
}
