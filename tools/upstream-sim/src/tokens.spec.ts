import { countTokens } from './tokens';

/** What countTokens stands for: the matches of the regular expression it replaced. */
const byPattern = (text: string): number => text.match(/[\p{L}\p{N}]+|[^\s\p{L}\p{N}]/gu)?.length ?? 0;

describe('countTokens', () => {
  it.each([
    ['', 0],
    ['   \t\n', 0],
    ['Hello, world!', 4],
    ['word1 word2', 2],
    ['a-b_c', 5],
    ['{"x":1}', 7],
  ])('counts words and marks of %j as %i', (text, tokens) => {
    expect(countTokens(text)).toBe(tokens);
    expect(byPattern(text)).toBe(tokens);
  });

  it.each([
    ['letters past ASCII in a word', 'naïve café Straße'],
    ['digits of other scripts', 'Zahl ٣٤٥ und ४२'],
    ['CJK, each run one word', '日本語のテキスト、句読点。'],
    ['a letter outside the BMP (a surrogate pair) inside a word', 'ab𝒳cd 𝒳'],
    ['emoji: one mark each, not two', 'hi 😀😀 ok'],
    ['lone surrogates: a mark each', 'x\ud800y \udc00'],
    ['Unicode whitespace: no-break space, line separator, BOM, ideographic space', 'a\u00a0b\u2028c\ufeffd\u3000e'],
    ['a combining mark after a letter: a mark of its own', 'e\u0301t\u0301e'],
    ['control characters that are not whitespace', 'a\u0000b\u007fc\u0085d'],
  ])('agrees with the pattern on %s', (_, text) => {
    expect(countTokens(text)).toBe(byPattern(text));
  });

  it('agrees with the pattern on random text over every kind of character', () => {
    const alphabet = ['a', 'Z', '7', ' ', '\n', ',', '"', 'é', 'ß', '٣', '日', '😀', '𝒳', '\u0301', '\u00a0', '\ud800', '\udc00', '\u2028', '-'];
    let seed = 42;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31);
    for (let round = 0; round < 200; round++) {
      const text = Array.from({ length: next() % 60 }, () => alphabet[next() % alphabet.length]).join('');
      expect(countTokens(text)).toBe(byPattern(text));
    }
  });
});
