import { readFileSync } from 'node:fs';
import path from 'node:path';
import { RELAY_GLIBC_TUNABLES } from './relay-setup';

const root = path.resolve(__dirname, '../../..');

describe('the relay benchmarked as it is started', () => {
  it('`npm start` sets the same glibc tunables as the bench gives the relay, unless the operator set their own', () => {
    const manifest = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
    expect(manifest.scripts['start']).toContain(`GLIBC_TUNABLES=\${GLIBC_TUNABLES:-${RELAY_GLIBC_TUNABLES}} node dist/apps/server/main.js`);
  });

  it('so does the demo', () => {
    const demo = readFileSync(path.join(root, 'tools/scripts/demo.mjs'), 'utf8');
    expect(demo).toContain(`GLIBC_TUNABLES: process.env.GLIBC_TUNABLES || '${RELAY_GLIBC_TUNABLES}'`);
  });
});
