#!/usr/bin/env node
// Proves the server's layer rules (eslint.config.mjs) still bite: lints a few imports that must be
// refused, as if written in the named production files, and a few that must pass. Exits non-zero
// when a rule has stopped catching what it is for (a renamed folder, a loosened pattern).
import { ESLint } from 'eslint';

const cases = [
  { file: 'apps/server/src/storage/layer-probe.ts', source: "import { attempt } from '../pipeline/attempt';", refused: true, why: 'storage imports the pipeline (upward)' },
  { file: 'apps/server/src/pipeline/layer-probe.ts', source: "import { x } from '../dialects/responses/responses-dialect';", refused: true, why: 'the pipeline imports a dialect (upward)' },
  { file: 'apps/server/src/channels/layer-probe.ts', source: "import { x } from '../routes/channels.route';", refused: true, why: 'channels import a route' },
  { file: 'apps/server/src/core/layer-probe.ts', source: "import { x } from '../storage/types';", refused: true, why: 'core imports a feature folder' },
  { file: 'apps/server/src/pipeline/layer-probe.ts', source: "import { x } from '../testing/test-relay';", refused: true, why: 'production imports a test harness' },
  { file: 'apps/server/src/billing/layer-probe.ts', source: "import { x } from './price-book.spec';", refused: true, why: 'production imports a spec' },
  { file: 'apps/server/src/channels/layer-probe.ts', source: "import { startUpstreamSim } from '@chat-relay/upstream-sim';", refused: true, why: 'production imports the simulator' },
  { file: 'apps/server/src/pipeline/layer-probe.ts', source: "import { x } from '../channels/channel-registry';", refused: false, why: 'the pipeline imports channels (downward)' },
  { file: 'apps/server/src/storage/layer-probe.ts', source: "import { x } from '../core/rate-limits';", refused: false, why: 'storage imports core (downward)' },
  { file: 'apps/server/src/pipeline/layer-probe.spec.ts', source: "import { x } from '../testing/test-relay';", refused: false, why: 'a spec imports a test harness' },
];

const eslint = new ESLint({ overrideConfig: { rules: { '@nx/enforce-module-boundaries': 'off', '@typescript-eslint/no-unused-vars': 'off' } } });
let wrong = 0;
for (const { file, source, refused, why } of cases) {
  const [result] = await eslint.lintText(`${source}\nexport const probe = 1;\n`, { filePath: file });
  const hit = result.messages.some((message) => message.ruleId === 'no-restricted-imports');
  if (hit !== refused) {
    wrong += 1;
    console.error(`layer rule ${refused ? 'no longer refuses' : 'now refuses'}: ${why} (${file}: ${source})`);
  }
}
if (wrong > 0) process.exit(1);
console.log(`layer rules: ${cases.length} probes, each refused or allowed as it should be`);
