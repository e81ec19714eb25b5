import { readFile } from 'node:fs/promises';

/** Lines decoded between two yields to the event loop: 12–30 ms of work each (o200k: ~0.14 s in all). */
const LINES_PER_TURN = 20_000;

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * A token's bytes as the tokenizer package's generated ranks hold them: the text when the bytes
 * are UTF-8 that encodes back to the same bytes, else the bytes themselves.
 */
function tokenOf(bytes: Buffer): string | number[] {
  try {
    const text = strictUtf8.decode(bytes);
    if (Buffer.byteLength(text) === bytes.length) return text;
  } catch {
    // Not UTF-8 on its own (part of a character): kept as bytes.
  }
  return Array.from(bytes);
}

/**
 * The merge ranks of a `.tiktoken` file (one `base64-token rank` a line, ranks ascending, a gap
 * left as `''`), in the shape of the package's generated `bpeRanks` modules. Read from the data
 * file rather than required as that module: with V8 parsing its 2.2 MB array literal (the syntax
 * tree of 200,000 literals) the tokenizer's first load grew RSS by 45–55 MB, decoding the file by
 * 31–42 MB (measured, o200k; docs/PERFORMANCE.md, issue 30). Yields every `LINES_PER_TURN` lines,
 * so the event loop is not held for the whole load.
 */
export async function readTiktokenRanks(path: string): Promise<Array<string | number[]>> {
  const text = await readFile(path, 'latin1');
  const ranks: Array<string | number[]> = [];
  let lines = 0;
  for (let start = 0; start < text.length; ) {
    let end = text.indexOf('\n', start);
    if (end === -1) end = text.length;
    if (end > start) {
      const space = text.indexOf(' ', start);
      const rank = space === -1 || space > end ? Number.NaN : Number(text.slice(space + 1, end));
      if (!Number.isInteger(rank) || rank < ranks.length) throw new Error(`${path}: line ${lines + 1} is not "token rank" in ascending order`);
      while (ranks.length < rank) ranks.push('');
      ranks.push(tokenOf(Buffer.from(text.slice(start, space), 'base64')));
    }
    start = end + 1;
    lines += 1;
    if (lines % LINES_PER_TURN === 0) await new Promise((resolve) => setImmediate(resolve));
  }
  return ranks;
}
