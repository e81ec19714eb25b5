import { writeFileSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import generatedRanks from 'gpt-tokenizer/cjs/bpeRanks/o200k_base';
import { readTiktokenRanks } from './tiktoken-ranks';
import { countCompletionTokens } from './estimate-usage';

describe('readTiktokenRanks', () => {
  it("reads o200k's data file into exactly the ranks the package generates from it", async () => {
    const ranks = await readTiktokenRanks(require.resolve('gpt-tokenizer/data/o200k_base.tiktoken'));
    expect(ranks.length).toBe(generatedRanks.length);
    let differing = 0;
    for (let rank = 0; rank < ranks.length; rank += 1) {
      const ours = ranks[rank];
      const theirs = generatedRanks[rank];
      const same = typeof ours === 'string' ? ours === theirs : Array.isArray(theirs) && ours !== undefined && ours.join(',') === theirs.join(',');
      if (!same) differing += 1;
    }
    expect(differing).toBe(0);
    // Both kinds occur: texts, and byte lists for tokens that are part of a character.
    expect(ranks.some((token) => Array.isArray(token))).toBe(true);
  });

  it('counts as the package itself does, texts and parts of characters alike', async () => {
    const { countTokens } = await import('gpt-tokenizer');
    const texts = [
      'Hello, world! This is a relay.',
      'naïve café — “quotes” and emoji 🧑‍💻🚀',
      '日本語のテキストと中文文本',
      '  indented\n\tcode();\r\n',
      'spells <|endoftext|> as text',
    ];
    for (const text of texts) {
      expect(await countCompletionTokens(text)).toBe(countTokens(text, { disallowedSpecial: new Set() }));
    }
  });

  it('leaves a gap in the ranks as an empty token and refuses lines out of order', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'ranks-'));
    try {
      const file = path.join(dir, 'small.tiktoken');
      const b64 = (text: string) => Buffer.from(text, 'latin1').toString('base64');
      writeFileSync(file, `${b64('a')} 0\n${b64('b')} 2\n${Buffer.from([0xe2]).toString('base64')} 3\n`);
      expect(await readTiktokenRanks(file)).toEqual(['a', '', 'b', [0xe2]]);
      writeFileSync(file, `${b64('a')} 1\n${b64('b')} 0\n`);
      await expect(readTiktokenRanks(file)).rejects.toThrow('line 2 is not "token rank" in ascending order');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
