import fs from 'node:fs';
import path from 'node:path';

/** `../shared/fixtures` beside the repository (SOURCES.md there says where each file is from). */
export const FIXTURES_DIR = path.resolve(__dirname, '../../../../../shared/fixtures');

export const readFixture = (relativePath: string): string =>
  fs.readFileSync(path.join(FIXTURES_DIR, relativePath), 'utf8');
