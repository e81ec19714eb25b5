import { RelayError } from '@chat-relay/wire';

/** What a limit does when Redis cannot be asked (RELAY_REDIS_FAILURE_MODE). */
export type FailureMode = 'open' | 'closed';

/**
 * The 503 of mode `closed`: the request is refused because its limits cannot be checked — SPEC
 * §9's `store_unavailable`, as for the database.
 */
export function limitsUnavailable(): RelayError {
  return new RelayError({
    status: 503,
    type: 'service_unavailable',
    code: 'store_unavailable',
    message: "This API key's rate limits cannot be checked right now (the shared limit store does not answer). Please retry shortly.",
    headers: { 'retry-after': '1' },
  });
}

/**
 * True when a command certainly never reached Redis (the connection was down and ioredis keeps
 * no offline queue); a timeout or a connection lost mid-command may have run it or not.
 */
export function neverSent(error: unknown): boolean {
  return error instanceof Error && error.message.startsWith("Stream isn't writeable");
}
