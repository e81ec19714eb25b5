import { runLimited } from './run-limited';

/** A promise the test resolves or rejects when it likes. */
function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (reason: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}
const flush = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('runLimited', () => {
  it('never runs more than the limit at once and starts the next as one settles', async () => {
    const pending = Array.from({ length: 5 }, () => deferred<number>());
    const started: number[] = [];
    const run = runLimited([0, 1, 2, 3, 4], 3, (item) => {
      started.push(item);
      return pending[item]!.promise;
    });
    await flush();
    expect(started).toEqual([0, 1, 2]);

    pending[1]!.resolve(10);
    await flush();
    expect(started).toEqual([0, 1, 2, 3]);

    pending[0]!.resolve(0);
    pending[2]!.reject(new Error('upstream down'));
    pending[3]!.resolve(30);
    await flush();
    pending[4]!.resolve(40);
    const outcomes = await run;
    expect(started).toEqual([0, 1, 2, 3, 4]);
    expect(outcomes.map((outcome) => outcome?.status)).toEqual(['fulfilled', 'fulfilled', 'rejected', 'fulfilled', 'fulfilled']);
    expect(outcomes[3]).toEqual({ status: 'fulfilled', value: 30 });
  });

  it('reports each outcome with its index as it settles', async () => {
    const seen: Array<[number, string]> = [];
    await runLimited(['a', 'b'], 1, async (item) => {
      if (item === 'b') throw new Error('no');
      return item.toUpperCase();
    }, (index, outcome) => seen.push([index, outcome.status]));
    expect(seen).toEqual([
      [0, 'fulfilled'],
      [1, 'rejected'],
    ]);
  });

  it('starts nothing more once aborted, leaving the rest out', async () => {
    const controller = new AbortController();
    const outcomes = await runLimited([1, 2, 3], 1, async (item) => {
      if (item === 1) controller.abort();
      return item;
    }, undefined, controller.signal);
    expect(outcomes).toEqual([{ status: 'fulfilled', value: 1 }, undefined, undefined]);
  });

  it('refuses a limit below one, which would never finish', async () => {
    await expect(runLimited([1], 0, async (item) => item)).rejects.toThrow('limit');
  });
});
