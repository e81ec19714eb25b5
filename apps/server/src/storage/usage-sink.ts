import type { TokenStore, UsageLogEntry, UsageLogStore } from './types';

/** Where batches of usage rows go: the stores in this thread, or a writer thread. */
export interface UsageSink {
  /** Resolves once the batch is stored (rows written, quotas settled, tokens touched). */
  write(batch: readonly UsageLogEntry[]): Promise<void>;
  close(): Promise<void>;
}

/** One batch into the stores: the rows with their settlement, then each token's last use. */
export async function writeUsageBatch(usageLog: UsageLogStore, tokens: TokenStore, batch: readonly UsageLogEntry[]): Promise<void> {
  await usageLog.insertBatch(batch);
  const lastUsed = new Map<number, string>();
  for (const entry of batch) {
    if (entry.tokenId !== null) lastUsed.set(entry.tokenId, entry.createdAt);
  }
  if (lastUsed.size) await tokens.touchLastUsed(lastUsed);
}

/** Writes in the calling thread (tests, and the fallback when the writer thread is gone). */
export const storeUsageSink = (usageLog: UsageLogStore, tokens: TokenStore): UsageSink => ({
  write: (batch) => writeUsageBatch(usageLog, tokens, batch),
  close: async () => undefined,
});
