import { createLogger } from '../../src/logger';
import { openAiKind } from './anthropic-e2e';
import { startE2eRelay, type E2eRelay } from './e2e-relay';
import { postGemini } from './gemini-e2e';

interface LogLine {
  level: number;
  msg: string;
  requestId?: string;
  [field: string]: unknown;
}

/** pino's numeric levels. */
const INFO = 30;
const WARN = 40;

/**
 * Issue 29 item 7: bridging warnings were logged at info level though the README says each is a
 * warning; and a request refused before any upstream attempt (a 400 of the relay's own) left a
 * usage row but no log line naming the refusal.
 */
describe('e2e: what the log says of a bridged or refused request', () => {
  const lines: LogLine[] = [];
  let e2e: E2eRelay;

  beforeAll(async () => {
    const logger = createLogger('info', { write: (line: string) => void lines.push(JSON.parse(line) as LogLine) });
    e2e = await startE2eRelay({ logger });
    const sim = await e2e.startSim();
    await e2e.addChannel(openAiKind.baseUrl(sim), { type: 'openai', models: ['bridged-model'] });
  });
  afterAll(() => e2e.close());

  const linesOf = (response: Response) => lines.filter((line) => line.requestId === response.headers.get('x-request-id'));

  it('a bridging warning is logged at warn level, with the request id', async () => {
    const lossy = { contents: [{ parts: [{ text: 'Hello' }] }], safetySettings: [{ category: 'HARM_CATEGORY_HARASSMENT', threshold: 'BLOCK_NONE' }] };
    const response = await postGemini(e2e, 'bridged-model:generateContent', lossy);
    expect(response.status).toBe(200);
    const warned = linesOf(response).find((line) => line.msg === 'request translated with warnings');
    expect(warned).toMatchObject({ level: WARN, warnings: [expect.objectContaining({ kind: 'dropped', field: 'safetySettings' })] });
  });

  it('a 400 raised before any upstream attempt: a usage row and a log line naming the refusal', async () => {
    const response = await fetch(`${e2e.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${e2e.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'bridged-model', messages: [{ role: 'user', content: 'Hi' }], stream_options: { include_usage: true } }),
    });
    expect(response.status).toBe(400);
    const requestId = response.headers.get('x-request-id');
    const rows = await e2e.usageRows(2);
    expect(rows.find((row) => row.requestId === requestId)).toMatchObject({ status: 400 });
    expect(linesOf(response)).toContainEqual(
      expect.objectContaining({ level: INFO, msg: 'request refused before any upstream attempt', status: 400, param: 'stream_options', message: expect.stringContaining('stream_options') }),
    );
  });

  it('a request refused by its own validation (the body) is logged the same way', async () => {
    const response = await postGemini(e2e, 'bridged-model:generateContent', { contents: 'nope' });
    expect(response.status).toBe(400);
    expect(linesOf(response)).toContainEqual(expect.objectContaining({ msg: 'request refused before any upstream attempt', status: 400, param: 'contents' }));
  });
});
