import fc from 'fast-check';
import { countTokens } from 'gpt-tokenizer';
import { splitForTokenizer } from './split-for-tokenizer';

const asText = { disallowedSpecial: new Set<string>() };
const sumOfPieces = (pieces: Iterable<string>) => [...pieces].reduce((sum, piece) => sum + countTokens(piece, asText), 0);

/** Words of letters (Latin, CJK, accented), digits and punctuation, as ordinary prompts hold. */
const word = fc
  .array(fc.constantFrom('a', 'Z', 'é', 'e\u0301', '好', '世', '😀', '1', '9', ',', '.', '，', '。', '!', "'", '"', '-', '(', '\n'), {
    minLength: 1,
    maxLength: 8,
  })
  .map((chars) => chars.join(''));

describe('splitForTokenizer', () => {
  it('puts every piece back together into the text, each piece non-empty and bounded', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 200 }), fc.integer({ min: 2, max: 40 }), (text, maxRun) => {
        const pieces = [...splitForTokenizer(text, maxRun * 4, maxRun)];
        expect(pieces.join('')).toBe(text);
        for (const piece of pieces) {
          expect(piece.length).toBeGreaterThan(0);
          expect(piece.length).toBeLessThanOrEqual(maxRun * 5 + 1);
        }
      }),
      { numRuns: 60 },
    );
  });

  it('cuts ordinary text only where the tokenizer splits anyway: the pieces count as the whole', () => {
    fc.assert(
      fc.property(fc.array(word, { minLength: 1, maxLength: 120 }), (words) => {
        const text = words.join(' ');
        const pieces = [...splitForTokenizer(text, 24, 24)];
        expect(sumOfPieces(pieces)).toBe(countTokens(text, asText));
      }),
    );
  });

  it('hard-cuts a run with no boundary at maxRun, never inside a surrogate pair', () => {
    const text = '好'.repeat(100) + '😀'.repeat(50);
    const pieces = [...splitForTokenizer(text, 1000, 64)];
    // 64 | 36 CJK and (a clean cut after a letter) 64 units of emoji | the last 36.
    expect(pieces.map((piece) => piece.length)).toEqual([64, 100, 36]);
    expect(pieces.join('')).toBe(text);
    for (const piece of pieces) expect(/[\uD800-\uDBFF]$/.test(piece) || /^[\uDC00-\uDFFF]/.test(piece)).toBe(false);
  });
});
