import type { TokenBatch } from '@chat-relay/contract';

export type BatchAction = Exclude<TokenBatch['action'], 'update'>;

interface BatchResult {
  action: TokenBatch['action'];
  results: ReadonlyArray<{ id: number; status: 'ok' | 'not_found' }>;
}

const DONE: Readonly<Record<TokenBatch['action'], string>> = { enable: 'Enabled', disable: 'Disabled', delete: 'Deleted', update: 'Updated' };

const tokens = (count: number): string => `${count} token${count === 1 ? '' : 's'}`;

/** What a batch did, in one sentence: "Disabled 2 tokens; 1 was not found (#9)." */
export function describeBatch(result: BatchResult): string {
  const done = result.results.filter((item) => item.status === 'ok');
  const missing = result.results.filter((item) => item.status === 'not_found');
  const sentence = `${DONE[result.action]} ${tokens(done.length)}`;
  if (missing.length === 0) return `${sentence}.`;
  const ids = missing.map((item) => `#${item.id}`).join(', ');
  return `${sentence}; ${missing.length === 1 ? '1 was' : `${missing.length} were`} not found (${ids}).`;
}

/** The question asked before deleting: the keys stop working at once and cannot be brought back. */
export const deleteQuestion = (count: number): string =>
  `Delete ${tokens(count)}? Their keys stop working at once; this cannot be undone.`;
