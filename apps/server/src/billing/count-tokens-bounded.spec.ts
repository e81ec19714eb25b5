import { BoundedTokenCount, REMEMBERED_MIN_CHARS, RememberedCounts } from './count-tokens-bounded';

/** A stand-in tokenizer: one token per character, counting its calls. */
function counter() {
  const calls = { pieces: 0 };
  return { calls, countPiece: (text: string) => ((calls.pieces += 1), text.length) };
}

describe('BoundedTokenCount with remembered counts', () => {
  const long = 'word '.repeat(REMEMBERED_MIN_CHARS);

  it('counts a long text once: the next prompt holding it again adds its remembered count', async () => {
    const remembered = new RememberedCounts();
    const { calls, countPiece } = counter();
    const first = new BoundedTokenCount(countPiece, undefined, remembered);
    await first.add(long);
    const counted = calls.pieces;
    expect(counted).toBeGreaterThan(0);
    const second = new BoundedTokenCount(countPiece, undefined, remembered);
    await second.add(long);
    await second.add('new turn');
    expect(second.total).toBe(first.total + 'new turn'.length);
    expect(calls.pieces).toBe(counted + 1);
  });

  it('counts short texts, and texts past the exact budget, anew', async () => {
    const remembered = new RememberedCounts();
    const { calls, countPiece } = counter();
    for (let round = 0; round < 2; round += 1) await new BoundedTokenCount(countPiece, undefined, remembered).add('short');
    expect(calls.pieces).toBe(2);
    // Past the budget the text is bytes, not remembered: a later count within budget is exact.
    const overBudget = new BoundedTokenCount(countPiece, 10, remembered);
    await overBudget.add(long);
    expect(overBudget.total).toBe(Buffer.byteLength(long));
    const before = calls.pieces;
    await new BoundedTokenCount(countPiece, undefined, remembered).add(long);
    expect(calls.pieces).toBeGreaterThan(before);
  });
});
