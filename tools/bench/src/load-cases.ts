import type { Mode } from './report';

/**
 * Each chat mode at 1 and 32 connections; non-stream also at 128, for throughput. Embeddings
 * only at 32, a retrieval step under concurrent callers: its answers are large, so it is the
 * slowest row, and one is enough to show what the relay adds on that endpoint.
 */
export const loadCases: readonly LoadCase[] = [
  { mode: 'non-stream', connections: 1 },
  { mode: 'non-stream', connections: 32 },
  { mode: 'non-stream', connections: 128 },
  { mode: 'stream', connections: 1 },
  { mode: 'stream', connections: 32 },
  { mode: '64k', connections: 1 },
  { mode: '64k', connections: 32 },
  { mode: 'embeddings', connections: 32 },
];

export interface LoadCase {
  mode: Mode;
  connections: number;
}

/** The rows of the table that `--rows` names, in the table's order; throws naming a row the table does not have. */
export function selectLoadCases(rows: readonly LoadCase[]): readonly LoadCase[] {
  for (const row of rows) {
    if (!loadCases.some((known) => known.mode === row.mode && known.connections === row.connections)) {
      throw new Error(`--rows: the table has no row ${row.mode}:${row.connections} (it has ${loadCases.map((known) => `${known.mode}:${known.connections}`).join(', ')})`);
    }
  }
  return loadCases.filter((known) => rows.some((row) => row.mode === known.mode && row.connections === known.connections));
}
