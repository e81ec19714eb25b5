import type { StoredUsageLogEntry } from '../../src/storage/types';
import type { E2eRelay } from './e2e-relay';

/**
 * The usage rows of the given requests (by the `x-request-id` the relay answered with), in that
 * order, waiting up to `timeoutMs` for rows written after the answer ended (a stream whose usage
 * the relay had to count itself); a row still missing then is `undefined`. Polls with a pause,
 * so the relay's own timers and I/O run meanwhile.
 */
export async function usageRowsFor(
  e2e: E2eRelay,
  requestIds: readonly (string | null | undefined)[],
  timeoutMs = 3000,
): Promise<Array<StoredUsageLogEntry | undefined>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    await e2e.relay.services.recorder.flush();
    const rows = await e2e.relay.storage.usageLog.recent(requestIds.length + 50);
    const found = requestIds.map((id) => rows.find((row) => id != null && row.requestId === id));
    if (found.every((row) => row !== undefined) || Date.now() > deadline) return found;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
