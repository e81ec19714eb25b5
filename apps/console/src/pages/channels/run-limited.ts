/**
 * Runs `work` over `items` with at most `limit` at a time, reporting each outcome as it settles
 * (in settling order) and resolving with all outcomes in the items' order. Stops starting new
 * work once `signal` is aborted; the unstarted items are left out of the outcomes.
 */
export async function runLimited<T, R>(
  items: readonly T[],
  limit: number,
  work: (item: T, index: number) => Promise<R>,
  onSettled?: (index: number, outcome: PromiseSettledResult<R>) => void,
  signal?: AbortSignal,
): Promise<Array<PromiseSettledResult<R> | undefined>> {
  if (!Number.isInteger(limit) || limit < 1) throw new RangeError('limit must be a whole number ≥ 1');
  const outcomes: Array<PromiseSettledResult<R> | undefined> = new Array(items.length).fill(undefined);
  let next = 0;
  const lane = async (): Promise<void> => {
    while (next < items.length && !signal?.aborted) {
      const index = next++;
      let outcome: PromiseSettledResult<R>;
      try {
        outcome = { status: 'fulfilled', value: await work(items[index] as T, index) };
      } catch (reason) {
        outcome = { status: 'rejected', reason };
      }
      outcomes[index] = outcome;
      onSettled?.(index, outcome);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane));
  return outcomes;
}
