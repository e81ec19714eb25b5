import fs from 'node:fs';
import path from 'node:path';
import { defaultAnthropicModels } from '@chat-relay/upstream-sim';
import { agentBody, agentHeaders, readAgentRequest } from './agent-fixtures';
import { SIM_KEY, startE2eRelay, type E2eRelay } from './e2e-relay';

/** The repository's README, as a reader copies from it. */
const README = fs.readFileSync(path.resolve(__dirname, '../../../../README.md'), 'utf8');

/** The JSON body of the README's example `anthropic` channel (`curl … -d '{ … "type": "anthropic" … }'`). */
function readmeAnthropicChannel(): { models: string[]; model_mapping?: Record<string, string> } {
  const bodies = [...README.matchAll(/-d '(\{[^']*"type": "anthropic"[^']*\})'/g)].map((match) => match[1] ?? '');
  const [body] = bodies;
  if (bodies.length !== 1 || !body) throw new Error(`the README shows ${bodies.length} anthropic channels`);
  return JSON.parse(body) as { models: string[]; model_mapping?: Record<string, string> };
}

/**
 * Issue 29 item 7: Claude Code without `--model` asks for its default model (in 2.1.332,
 * recorded: `claude-opus-5-5`), which the README's example anthropic channel did not serve — a
 * new user following the README got a 404 on Claude Code's first request.
 */
describe('e2e: the README’s example anthropic channel serves Claude Code’s default model', () => {
  const recorded = readAgentRequest('claudeCode');
  const body = agentBody(recorded) as { model: string };
  let e2e: E2eRelay;

  beforeAll(async () => {
    e2e = await startE2eRelay();
    // Anthropic's own list: the default is a model Anthropic serves.
    const sim = await e2e.startSim({ anthropicModels: [...defaultAnthropicModels, body.model] });
    // The README's models and mapping; the simulator's address and key in place of Anthropic's.
    const { models, model_mapping } = readmeAnthropicChannel();
    await e2e.addChannel(sim.anthropicBaseUrl, { name: 'anthropic', type: 'anthropic', keys: [SIM_KEY], models, ...(model_mapping && { model_mapping }) });
  });
  afterAll(() => e2e.close());

  it(`answers Claude Code’s recorded first request (${body.model}), as the CLI sent it`, async () => {
    const response = await fetch(`${e2e.url}${recorded.path}?beta=true`, { method: 'POST', headers: agentHeaders(recorded, e2e.token), body: JSON.stringify(body) });
    expect([response.status, response.status === 200 ? '' : await response.text()]).toEqual([200, '']);
  });
});
