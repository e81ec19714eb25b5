import type { Logger } from '../logger';

/**
 * A warning logged at most once per `intervalMs` for each `key`, with how many were left out
 * since the last one: an outage that fails every request must not write a line per request.
 */
export type ThrottledWarn = (key: string, error: unknown, message: string) => void;

export function throttledWarn(logger: Logger, intervalMs = 10_000, now: () => number = Date.now): ThrottledWarn {
  const last = new Map<string, { at: number; suppressed: number }>();
  return (key, error, message) => {
    const seen = last.get(key);
    const at = now();
    if (seen && at - seen.at < intervalMs) {
      seen.suppressed += 1;
      return;
    }
    last.set(key, { at, suppressed: 0 });
    logger.warn({ error: describeError(error), suppressed: seen?.suppressed ?? 0 }, message);
  };
}

/**
 * The message of an error, never the error object: ioredis errors may carry the command's
 * arguments and the connection's options, and the URL holds the password.
 */
export function describeError(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
