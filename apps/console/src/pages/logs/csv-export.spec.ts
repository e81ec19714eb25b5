import { formatBytes } from '../../api/format';
import { collectCsv, isAbort } from './csv-export';

async function* chunksOf(...texts: string[]): AsyncIterable<Uint8Array> {
  for (const text of texts) yield new TextEncoder().encode(text);
}

describe('CSV export', () => {
  it('joins the streamed chunks into one text/csv Blob, reporting the bytes as they come', async () => {
    const seen: number[] = [];
    const blob = await collectCsv(chunksOf('id,status\n', '1,200\n', '2,500\n'), (bytes) => seen.push(bytes));

    expect(seen).toEqual([10, 16, 22]);
    expect(blob.type).toBe('text/csv');
    expect(blob.size).toBe(22);
  });

  it('stops with an AbortError once cancelled', async () => {
    const controller = new AbortController();
    const failure = await collectCsv(chunksOf('a\n', 'b\n', 'c\n'), (bytes) => bytes >= 2 && controller.abort(), controller.signal).catch(
      (error: unknown) => error,
    );

    expect(isAbort(failure)).toBe(true);
  });

  it('says sizes in bytes, KB and MB', () => {
    expect(formatBytes(512)).toBe('512 B');
    expect(formatBytes(1536)).toBe('1.5 KB');
    expect(formatBytes(5 * 1024 * 1024)).toBe('5.0 MB');
  });
});
