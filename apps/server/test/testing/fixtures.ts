import fs from 'node:fs';
import path from 'node:path';

/** The repository's `test-fixtures/` (SOURCES.md there says where each file is from). */
export const FIXTURES_DIR = path.resolve(__dirname, '../../../../test-fixtures');

export const readFixture = (relativePath: string): string =>
  fs.readFileSync(path.join(FIXTURES_DIR, relativePath), 'utf8');
