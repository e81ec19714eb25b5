import { LOCAL_CIRCUITS, type CircuitSync } from '../cluster/circuit-sync';

export interface CircuitOptions {
  /** The sliding window failures and attempts are counted over. */
  windowMs?: number;
  /** Counted failures in the window that open the circuit (with the failure rate below). */
  minFailures?: number;
  /** What one caller's failures count for at most: one token alone never opens a circuit. */
  perCallerCap?: number;
  /** Share of the window's attempts that failed, at least. */
  failureRate?: number;
  /** How long an open circuit keeps the channel out of rotation. */
  coolDownMs?: number;
}

/**
 * Who a failure is evidence from: a caller (`token:3`) whose request may have caused it (a 5xx,
 * a timeout, a cut connection), or `null` when no request can cause it (connection refused).
 */
export type FailureSource = string | null;

export type CircuitState = 'closed' | 'open' | 'half_open';

/** Told when this instance opens or closes a circuit — not when another instance's announcement does (webhooks). */
export type CircuitListener = (channelId: number, change: 'opened' | 'closed') => void;

export interface CircuitSnapshot {
  state: CircuitState;
  /** In the window: attempts with an outcome, and those that failed. */
  attempts: number;
  failures: number;
  /** When an open circuit lets its trial request through (ISO), else null. */
  openUntil: string | null;
}

const BUCKETS = 12;
/** Failures remembered per channel to tell callers apart (only the failure path reads them). */
const MAX_FAILURES_KEPT = 64;

interface Bucket {
  start: number;
  attempts: number;
  failures: number;
}

interface ChannelCircuit {
  buckets: Bucket[];
  failures: Array<{ at: number; source: FailureSource }>;
  open: boolean;
  openUntil: number;
  trialStartedAt: number | null;
  /** Until when the upstream asked not to be sent more (its retry-after): skipped by routing, the circuit untouched. */
  restingUntil?: number;
}

/**
 * One circuit breaker per channel (SPEC §6, issue 10 defect 7). It opens only on evidence that
 * the channel itself is unhealthy: within a sliding window, at least `minFailures` counted
 * failures — each caller's counting for at most `perCallerCap`, connection failures no request
 * can cause counting in full — making up at least `failureRate` of the attempts. Caller-caused
 * 4xx and timeouts of unusually long answers are never reported here. After the cool-down one
 * trial request passes: success closes the circuit, failure reopens it.
 *
 * With several instances (`sync`), each counts what it sees, and opening or closing a circuit is
 * announced to all: one instance's evidence takes the channel out of rotation everywhere, and
 * each instance then lets its own trial through after the cool-down.
 */
export class ChannelHealth {
  private readonly circuits = new Map<number, ChannelCircuit>();
  private readonly windowMs: number;
  private readonly bucketMs: number;
  private readonly minFailures: number;
  private readonly perCallerCap: number;
  private readonly failureRate: number;
  private readonly coolDownMs: number;
  private readonly listeners: CircuitListener[] = [];

  constructor(
    options: CircuitOptions = {},
    private readonly now: () => number = Date.now,
    private readonly sync: CircuitSync = LOCAL_CIRCUITS,
  ) {
    sync.onRemote((channelId, openUntil) => this.applyRemote(channelId, openUntil));
    this.windowMs = options.windowMs ?? 60_000;
    this.bucketMs = Math.max(1, Math.ceil(this.windowMs / BUCKETS));
    this.minFailures = options.minFailures ?? 4;
    this.perCallerCap = options.perCallerCap ?? 2;
    this.failureRate = options.failureRate ?? 0.5;
    this.coolDownMs = options.coolDownMs ?? 30_000;
  }

  onCircuitChange(listener: CircuitListener): void {
    this.listeners.push(listener);
  }

  private tell(channelId: number, change: 'opened' | 'closed'): void {
    for (const listener of this.listeners) listener(channelId, change);
  }

  /** What other instances announced (or, on refresh, what is open everywhere). */
  applyRemote(channelId: number, openUntil: number | null): void {
    if (openUntil === null) {
      if (this.circuits.get(channelId)?.open) this.circuits.delete(channelId);
      return;
    }
    const circuit = this.circuitOf(channelId);
    if (circuit.open && circuit.openUntil >= openUntil) return;
    circuit.open = true;
    circuit.openUntil = openUntil;
    circuit.trialStartedAt = null;
  }

  /** Takes in every circuit open across the instances (start-up, and the periodic refresh). */
  async refresh(): Promise<void> {
    for (const [channelId, openUntil] of await this.sync.openCircuits()) {
      if (openUntil > this.now()) this.applyRemote(channelId, openUntil);
    }
  }

  isAvailable(channelId: number): boolean {
    const circuit = this.circuits.get(channelId);
    if (!circuit) return true;
    if (circuit.restingUntil !== undefined && this.now() < circuit.restingUntil) return false;
    if (!circuit.open) return true;
    const now = this.now();
    if (now < circuit.openUntil) return false;
    // Half-open: one trial at a time; a trial that never reported back does not block forever.
    return circuit.trialStartedAt === null || now - circuit.trialStartedAt >= this.coolDownMs;
  }

  /** Call when a request is sent, so only one trial passes a half-open circuit. */
  markAttempt(channelId: number): void {
    const circuit = this.circuits.get(channelId);
    if (circuit?.open && this.now() >= circuit.openUntil) circuit.trialStartedAt = this.now();
  }

  /** The upstream answered (2xx, or a 4xx about the request): the channel works. */
  recordSuccess(channelId: number): void {
    const circuit = this.circuitOf(channelId);
    if (circuit.open) {
      this.circuits.delete(channelId);
      this.sync.announce(channelId, null);
      this.tell(channelId, 'closed');
      return;
    }
    this.bucketOf(circuit).attempts += 1;
  }

  /**
   * A failure that speaks about the channel's health. `countAttempt: false` for a stream that
   * failed after its start was already counted as a success.
   */
  recordFailure(channelId: number, source: FailureSource, countAttempt = true): void {
    const circuit = this.circuitOf(channelId);
    const now = this.now();
    if (circuit.open) {
      // The trial failed (or a request already in flight when it opened): another cool-down.
      circuit.openUntil = Math.max(circuit.openUntil, now + this.coolDownMs);
      circuit.trialStartedAt = null;
      this.sync.announce(channelId, circuit.openUntil);
      return;
    }
    const bucket = this.bucketOf(circuit);
    if (countAttempt) bucket.attempts += 1;
    bucket.failures += 1;
    circuit.failures.push({ at: now, source });
    if (circuit.failures.length > MAX_FAILURES_KEPT) circuit.failures.shift();
    if (this.shouldOpen(circuit, now)) {
      circuit.open = true;
      circuit.openUntil = now + this.coolDownMs;
      circuit.trialStartedAt = null;
      this.sync.announce(channelId, circuit.openUntil);
      this.tell(channelId, 'opened');
    }
  }

  /**
   * The upstream said when to come back (a 429's `retry-after-ms`, Azure's and OpenAI's): routing
   * skips the channel until then on this instance — no evidence against its health, and bounded
   * by `maxMs` so a wrong header cannot park a channel for long.
   */
  rest(channelId: number, forMs: number, maxMs = 60_000): void {
    if (!(forMs > 0)) return;
    const circuit = this.circuitOf(channelId);
    circuit.restingUntil = Math.max(circuit.restingUntil ?? 0, this.now() + Math.min(forMs, maxMs));
  }

  /** An outcome that says nothing about the channel (the caller left, a long answer timed out). */
  releaseTrial(channelId: number): void {
    const circuit = this.circuits.get(channelId);
    if (circuit) circuit.trialStartedAt = null;
  }

  snapshot(channelId: number): CircuitSnapshot {
    const circuit = this.circuits.get(channelId);
    if (!circuit) return { state: 'closed', attempts: 0, failures: 0, openUntil: null };
    const now = this.now();
    const { attempts, failures } = this.windowTotals(circuit, now);
    if (!circuit.open) return { state: 'closed', attempts, failures, openUntil: null };
    const state = now < circuit.openUntil ? 'open' : 'half_open';
    return { state, attempts, failures, openUntil: new Date(circuit.openUntil).toISOString() };
  }

  /** The channel was edited or deleted: its history no longer speaks for it, on any instance. */
  forget(channelId: number): void {
    const wasOpen = this.circuits.get(channelId)?.open === true;
    this.circuits.delete(channelId);
    if (wasOpen) this.sync.announce(channelId, null);
  }

  private shouldOpen(circuit: ChannelCircuit, now: number): boolean {
    const since = now - this.windowMs;
    while (circuit.failures.length > 0 && (circuit.failures[0]?.at ?? now) <= since) circuit.failures.shift();
    const perCaller = new Map<string, number>();
    let counted = 0;
    for (const { source } of circuit.failures) {
      if (source === null) {
        counted += 1;
        continue;
      }
      const seen = perCaller.get(source) ?? 0;
      perCaller.set(source, seen + 1);
      if (seen < this.perCallerCap) counted += 1;
    }
    if (counted < this.minFailures) return false;
    const { attempts, failures } = this.windowTotals(circuit, now);
    return attempts > 0 && failures / attempts >= this.failureRate;
  }

  private windowTotals(circuit: ChannelCircuit, now: number): { attempts: number; failures: number } {
    let attempts = 0;
    let failures = 0;
    for (const bucket of circuit.buckets) {
      if (bucket.start > now - this.windowMs) {
        attempts += bucket.attempts;
        failures += bucket.failures;
      }
    }
    return { attempts, failures };
  }

  private circuitOf(channelId: number): ChannelCircuit {
    let circuit = this.circuits.get(channelId);
    if (!circuit) {
      const buckets = Array.from({ length: BUCKETS }, () => ({ start: -Infinity, attempts: 0, failures: 0 }));
      circuit = { buckets, failures: [], open: false, openUntil: 0, trialStartedAt: null };
      this.circuits.set(channelId, circuit);
    }
    return circuit;
  }

  /** The current time slot's counters, cleared when the ring comes round to it again. */
  private bucketOf(circuit: ChannelCircuit): Bucket {
    const slot = Math.floor(this.now() / this.bucketMs);
    const bucket = circuit.buckets[slot % BUCKETS] as Bucket;
    const start = slot * this.bucketMs;
    if (bucket.start !== start) {
      bucket.start = start;
      bucket.attempts = 0;
      bucket.failures = 0;
    }
    return bucket;
  }
}
