import { createLogger } from '../../src/logger';
import { openAiKind } from './anthropic-e2e';
import { SIM_KEY, startE2eRelay, type E2eRelay } from './e2e-relay';
import { postGemini } from './gemini-e2e';
import type { UpstreamSim } from '@chat-relay/upstream-sim';

/**
 * Google's examples pass the key in the URL (`?key=`): the relay reads it there and nowhere else —
 * it is not logged (at trace level), not stored in usage rows, not sent upstream.
 */
describe('e2e: a relay key given as ?key= on the Gemini route', () => {
  const lines: string[] = [];
  let e2e: E2eRelay;
  let sim: UpstreamSim;

  beforeAll(async () => {
    const logger = createLogger('trace', { write: (line: string) => void lines.push(line) });
    e2e = await startE2eRelay({ logger });
    sim = await e2e.startSim();
    await e2e.addChannel(sim.geminiBaseUrl, { type: 'gemini', models: ['native-model'], model_mapping: { 'native-model': 'gemini-2.5-flash' } });
    await e2e.addChannel(openAiKind.baseUrl(sim), { type: 'openai', models: ['bridged-model'] });
  });
  afterAll(() => e2e.close());

  it('is never logged, stored or forwarded, whatever the request comes to', async () => {
    const noHeaders = {};
    const query = `?key=${encodeURIComponent(e2e.token)}`;
    const hello = { contents: [{ parts: [{ text: 'Hello there' }] }] };
    const statuses = [
      (await postGemini(e2e, 'native-model:generateContent', hello, noHeaders, query)).status,
      (await postGemini(e2e, 'native-model:streamGenerateContent', hello, noHeaders, `${query}&alt=sse`)).status,
      // Bridged with warnings, which are logged.
      (await postGemini(e2e, 'bridged-model:generateContent', { ...hello, safetySettings: [{ category: 'HARM_CATEGORY_HARASSMENT', threshold: 'BLOCK_NONE' }] }, noHeaders, query)).status,
      (await postGemini(e2e, 'bridged-model:streamGenerateContent', { contents: [{ parts: [{ text: 'Hi [sim:fault=stream-error]' }] }] }, noHeaders, `${query}&alt=sse`)).status,
      (await postGemini(e2e, 'no-such-model:generateContent', hello, noHeaders, query)).status,
      (await postGemini(e2e, 'bridged-model:generateContent', { contents: 'nope' }, noHeaders, query)).status,
    ];
    expect(statuses).toEqual([200, 200, 200, 200, 404, 400]);

    const rows = await e2e.usageRows(6);
    expect(rows).toHaveLength(6);
    expect(lines.some((line) => line.includes('request translated with warnings'))).toBe(true);
    const secretTail = e2e.token.slice(-16);
    expect(lines.filter((line) => line.includes(secretTail))).toEqual([]);
    expect(JSON.stringify(rows)).not.toContain(secretTail);
    expect(sim.requests.map((request) => request.query)).toEqual(['', 'alt=sse', '', '']);
    expect(JSON.stringify(sim.requests)).not.toContain(secretTail);
    expect(sim.requests.every((request) => request.headers['x-goog-api-key'] === SIM_KEY || request.headers['authorization'] === `Bearer ${SIM_KEY}`)).toBe(true);
  });
});
