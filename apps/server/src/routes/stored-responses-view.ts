import type { StoredResponsesUsage } from '@chat-relay/contract';
import type { StoredResponses } from '../dialects/responses/stored-responses';

/** What the account routes read of the stored Responses: each account's usage and the bounds. */
export type StoredResponsesSource = Pick<StoredResponses, 'usage' | 'options'>;

/** `stored_responses` of each of `accountIds` (one query for a whole page of accounts). */
export async function storedResponsesOf(source: StoredResponsesSource, accountIds: readonly number[]): Promise<(accountId: number) => StoredResponsesUsage> {
  const usage = await source.usage(accountIds);
  const bounds = { max_count: source.options.maxPerAccount, max_bytes: source.options.maxBytesPerAccount };
  return (accountId) => ({ count: 0, bytes: 0, ...usage.get(accountId), ...bounds });
}
