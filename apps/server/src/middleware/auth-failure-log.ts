import type { Logger } from '../logger';

const DEFAULT_INTERVAL_MS = 60_000;

/**
 * Requests refused for a missing, unknown, disabled or expired key. They write no usage row —
 * anybody can send them, so rows would let anybody grow the database — but they are counted, and
 * reported in at most one log line per interval (the first at once), never with the key.
 */
export class AuthFailureLog {
  /** Refusals since start. */
  total = 0;
  private sinceLastLine = 0;
  private lastLineAt = Number.NEGATIVE_INFINITY;
  private listener: ((code: string) => void) | undefined;

  constructor(
    private readonly logger: Logger,
    private readonly intervalMs = DEFAULT_INTERVAL_MS,
    private readonly now: () => number = Date.now,
  ) {}

  /** `listener` hears the code of every refusal (metrics). */
  onRefusal(listener: (code: string) => void): void {
    this.listener = listener;
  }

  record(code: string, clientIp: string | undefined): void {
    this.total += 1;
    this.listener?.(code);
    this.sinceLastLine += 1;
    const now = this.now();
    if (now - this.lastLineAt < this.intervalMs) return;
    this.logger.warn(
      { refused: this.sinceLastLine, total: this.total, lastCode: code, lastClientIp: clientIp ?? null },
      'requests refused for a missing or invalid API key',
    );
    this.sinceLastLine = 0;
    this.lastLineAt = now;
  }
}
