import { readFileSync } from 'node:fs';
import path from 'node:path';
import { BpeCounter, O200K_SPLIT } from './bpe-counter';
import { BpeRanks } from './bpe-ranks';
import { seededRandom } from '../../test/testing/seeded-random';

type CountTokens = (text: string, options: { disallowedSpecial: Set<string> }) => number;

/** Texts mixing what tokenizers trip on: scripts, emoji and joiners, combining marks, digits, contractions, line ends, lone surrogates. */
function mixedTexts(count: number): string[] {
  const next = seededRandom(30);
  const alphabets = [
    'abcdefghijklmnopqrstuvwxyz', 'ABCDEFGHIJKLMNOPQRSTUVWXYZ', '0123456789', " \t\n\r'.,;:!?-_/\\()[]{}<>\"`~@#$%^&*+=|",
    'áéíóúñçøßæœ', 'АБВгдежзий', '日本語中文文本测试カタカナ', '한국어', 'العربية', 'हिन्दी', '🧑‍💻🚀👍🏽❤️', '\u0301\u0308\u200d\ufe0f',
    '\ud800', '\udfff',
  ];
  return Array.from({ length: count }, () => {
    let text = '';
    const length = 1 + Math.floor(next() * 120);
    for (let index = 0; index < length; index += 1) {
      const alphabet = alphabets[Math.floor(next() * alphabets.length)] as string;
      const units = [...alphabet];
      text += units[Math.floor(next() * units.length)];
    }
    return text;
  });
}

describe('BpeCounter (o200k)', () => {
  let counter: BpeCounter;
  let countTokens: CountTokens;
  const theirs = (text: string) => countTokens(text, { disallowedSpecial: new Set() });

  beforeAll(async () => {
    counter = new BpeCounter(await BpeRanks.read(require.resolve('gpt-tokenizer/data/o200k_base.tiktoken')), O200K_SPLIT, 64);
    ({ countTokens } = (await import('gpt-tokenizer')) as { countTokens: CountTokens });
  });

  it('counts as the tokenizer package does: plain texts, scripts, emoji, code, contractions and special tokens spelled as text', () => {
    const texts = [
      '',
      'Hello, world! This is a relay.',
      'naïve café — “quotes” and emoji 🧑‍💻🚀',
      '日本語のテキストと中文文本',
      '  indented\n\tcode();\r\n',
      'spells <|endoftext|> and <|im_start|> as text',
      "I'm sure they'LL say we'VE done it, DON'T you think?",
      '1234567890 3.14159 1,000,000 0x1F',
      '\n\n\n   \r\n\r\n\t\t  x   ',
      'supercalifragilisticexpialidocious antidisestablishmentarianism',
      'a'.repeat(300),
    ];
    for (const text of texts) expect(counter.count(text)).toBe(theirs(text));
  });

  it("counts this repository's own documentation and code exactly as the package does, line by line and whole", () => {
    const root = path.resolve(__dirname, '../../../..');
    for (const file of ['README.md', 'docs/PERFORMANCE.md', 'apps/server/src/billing/bpe-counter.ts', 'package.json']) {
      const text = readFileSync(path.join(root, file), 'utf8');
      expect(counter.count(text)).toBe(theirs(text));
      const lines = text.split('\n');
      const differing = lines.filter((line) => counter.count(line) !== theirs(line));
      expect(differing).toEqual([]);
    }
  });

  it('counts 3,000 generated texts of mixed scripts, marks, emoji and lone surrogates as the package does', () => {
    const differing = mixedTexts(3000).filter((text) => counter.count(text) !== theirs(text));
    expect(differing).toEqual([]);
  });

  it('gives the same count again once a merged piece is remembered, and past the bound of remembered pieces', () => {
    const texts = mixedTexts(200);
    const first = texts.map((text) => counter.count(text));
    expect(texts.map((text) => counter.count(text))).toEqual(first);
    expect(first).toEqual(texts.map(theirs));
  });
});
