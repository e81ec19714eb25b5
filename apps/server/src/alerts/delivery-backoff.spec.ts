import { nextAttemptAt, retryDelayMs } from './delivery-backoff';

describe('webhook retry back-off', () => {
  it('waits 5 s, 30 s, 2 min, 10 min, 1 h, then 6 h between attempts with the default 5 s first step', () => {
    expect([1, 2, 3, 4, 5, 6, 7, 9].map((attempts) => retryDelayMs(attempts, 5_000))).toEqual([
      5_000, 30_000, 120_000, 600_000, 3_600_000, 21_600_000, 21_600_000, 21_600_000,
    ]);
  });

  it('scales with the first step, and gives up after the last attempt', () => {
    const policy = { maxAttempts: 3, firstDelayMs: 10 };
    expect(nextAttemptAt(1, 1_000, policy)).toBe(1_010);
    expect(nextAttemptAt(2, 1_000, policy)).toBe(1_060);
    expect(nextAttemptAt(3, 1_000, policy)).toBeNull();
  });
});
