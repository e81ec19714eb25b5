import { takeTurn } from './take-turn';

describe('takeTurn', () => {
  it('one waiter a turn of the event loop: other work queued meanwhile runs between two of them', async () => {
    const order: string[] = [];
    const first = takeTurn().then(() => order.push('first'));
    const second = takeTurn().then(() => order.push('second'));
    setImmediate(() => order.push('other work'));
    await Promise.all([first, second]);
    // With a plain setImmediate each, both would run before the other work.
    expect(order).toEqual(['first', 'other work', 'second']);
  });

  it('first come, first served', async () => {
    const order: number[] = [];
    await Promise.all([1, 2, 3, 4].map((n) => takeTurn().then(() => order.push(n))));
    expect(order).toEqual([1, 2, 3, 4]);
  });
});
