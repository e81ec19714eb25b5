import { writeFileSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import generatedRanks from 'gpt-tokenizer/cjs/bpeRanks/o200k_base';
import { BpeRanks } from './bpe-ranks';

const O200K = require.resolve('gpt-tokenizer/data/o200k_base.tiktoken');

/** A token of the package's generated ranks as bytes: its text in UTF-8, or its byte list. */
const bytesOfGenerated = (token: string | number[] | undefined): Buffer => (typeof token === 'string' ? Buffer.from(token, 'utf8') : Buffer.from(token ?? []));

describe('BpeRanks', () => {
  it("reads o200k's data file into exactly the tokens the package generates from it, each found again by its bytes", async () => {
    const ranks = await BpeRanks.read(O200K);
    expect(ranks.size).toBe(generatedRanks.length);
    let differing = 0;
    let notFound = 0;
    for (let rank = 0; rank < generatedRanks.length; rank += 1) {
      const theirs = bytesOfGenerated(generatedRanks[rank]);
      const ours = ranks.bytesOf(rank);
      if (!theirs.equals(ours)) differing += 1;
      if (ranks.rankOf(ours, 0, ours.length) !== rank) notFound += 1;
    }
    expect(differing).toBe(0);
    expect(notFound).toBe(0);
    // Both kinds occur: tokens that are text, and tokens that are part of a character.
    expect(generatedRanks.some((token) => Array.isArray(token))).toBe(true);
  });

  it('finds a token inside a longer buffer by its range, and says -1 for bytes that are no token', async () => {
    const ranks = await BpeRanks.read(O200K);
    const text = Buffer.from('xx hello yy');
    const hello = ranks.rankOf(text, 2, 8);
    expect(hello).toBeGreaterThanOrEqual(0);
    expect(Buffer.from(ranks.bytesOf(hello)).toString()).toBe(' hello');
    expect(ranks.rankOf(Buffer.from('qzxqzxqzxqzx'), 0, 12)).toBe(-1);
    // Every single byte is a token of a byte-level BPE.
    for (let byte = 0; byte < 256; byte += 1) expect(ranks.rankOf(Uint8Array.of(byte), 0, 1)).toBeGreaterThanOrEqual(0);
  });

  it('leaves a skipped rank as a gap, and refuses lines out of order or without a token', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'ranks-'));
    try {
      const file = path.join(dir, 'small.tiktoken');
      const b64 = (bytes: Buffer) => bytes.toString('base64');
      writeFileSync(file, `${b64(Buffer.from('a'))} 0\n${b64(Buffer.from('bc'))} 2\n${b64(Buffer.from([0xe2]))} 3\n`);
      const ranks = await BpeRanks.read(file);
      expect(ranks.size).toBe(4);
      expect([0, 1, 2, 3].map((rank) => [...ranks.bytesOf(rank)])).toEqual([[0x61], [], [0x62, 0x63], [0xe2]]);
      expect(ranks.rankOf(Buffer.from('bc'), 0, 2)).toBe(2);
      expect(ranks.rankOf(Buffer.from([0xe2]), 0, 1)).toBe(3);
      expect(ranks.rankOf(Buffer.from('b'), 0, 1)).toBe(-1);
      writeFileSync(file, `${b64(Buffer.from('a'))} 0\n${b64(Buffer.from('b'))} 2\n${b64(Buffer.from('c'))} 1\n${b64(Buffer.from('d'))} 3\n`);
      await expect(BpeRanks.read(file)).rejects.toThrow('line 3 is not "token rank" in ascending order');
      writeFileSync(file, `${b64(Buffer.from('a'))} 1\n${b64(Buffer.from('b'))} 0\n`);
      await expect(BpeRanks.read(file)).rejects.toThrow("line 1 has rank 1, above the last line's 0: ranks must ascend");
      writeFileSync(file, `${b64(Buffer.from('a'))} 0\n${b64(Buffer.from('b'))} x\n`);
      await expect(BpeRanks.read(file)).rejects.toThrow('line 2 is not "token rank" in ascending order');
      // Read from the bytes: digits only, on any line.
      writeFileSync(file, `${b64(Buffer.from('a'))} 0\n${b64(Buffer.from('b'))} 1x\n${b64(Buffer.from('c'))} 2\n`);
      await expect(BpeRanks.read(file)).rejects.toThrow('line 2 is not "token rank" in ascending order');
      writeFileSync(file, `${b64(Buffer.from('a'))} 0\n*** 1\n`);
      await expect(BpeRanks.read(file)).rejects.toThrow('line 2 holds no base64 token');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
