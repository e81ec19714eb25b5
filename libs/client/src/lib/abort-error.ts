/** The error an aborted call rejects with: the signal's reason, as `fetch` does. */
export function abortErrorOf(signal: AbortSignal): Error {
  const reason: unknown = signal.reason;
  if (reason instanceof Error) return reason;
  return new DOMException('This operation was aborted', 'AbortError');
}

/**
 * Runs `call` and, when `signal` was aborted meanwhile, replaces whatever the transport threw
 * (axios' CanceledError, a reset socket …) by the abort error, so callers test one thing.
 */
export async function withAbortError<T>(signal: AbortSignal | undefined, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (signal?.aborted) throw abortErrorOf(signal);
    throw error;
  }
}
