import type { ChannelType } from '@chat-relay/contract';
import { createLogger } from '../../src/logger';
import { startE2eRelay, type E2eRelay } from './e2e-relay';
import { LEAK_VARIANTS, startLeakyUpstream, type LeakyUpstream } from './leaky-upstream';

/** Two keys per channel, with characters that JSON and URL encodings spell differently. */
const KEYS = [
  'lk_oa/Zq+Vt7Rm2Xc9Pw4',
  'lk_ob/Zq+Hs3Dn8Ke1Ly6',
  'lk_aa/Zq+Bf5Gj2Tu7Qe3',
  'lk_ab/Zq+Wm9Nc4Ro8Ap1',
  'lk_ga/Zq+Yx6Ei3Sb5Kd2',
  'lk_gb/Zq+Uh1Lf7Mv4Tz9',
];
/** Each key's last 12 characters: found in any output, some spelling of that key leaked. */
const TAILS = KEYS.map((key) => key.slice(-12));

const CHANNELS: Array<{ type: ChannelType; model: string; keys: string[] }> = [
  { type: 'openai', model: 'leak-gpt', keys: KEYS.slice(0, 2) },
  { type: 'anthropic', model: 'leak-claude', keys: KEYS.slice(2, 4) },
  { type: 'gemini', model: 'leak-gemini', keys: KEYS.slice(4, 6) },
];
const CASES = [
  { stream: false, mode: 'status:400' },
  { stream: false, mode: 'status:500' },
  { stream: true, mode: 'status:400' },
  { stream: true, mode: 'status:500' },
  { stream: true, mode: 'midstream' },
];

const leaked = (text: string): string[] => TAILS.filter((tail) => text.includes(tail));

describe('issue 10 defect 4: upstream key leaked through error fields', () => {
  const lines: string[] = [];
  let e2e: E2eRelay;
  let upstream: LeakyUpstream;
  let accountKey: string;
  let token: string;

  beforeAll(async () => {
    const logger = createLogger('trace', { write: (line: string) => void lines.push(line) });
    e2e = await startE2eRelay({ logger });
    upstream = await startLeakyUpstream(KEYS);
    for (const channel of CHANNELS) {
      await e2e.addChannel(channel.type === 'gemini' ? upstream.geminiBaseUrl : upstream.baseUrl, {
        type: channel.type,
        keys: channel.keys,
        models: [channel.model],
      });
    }
    const admin = { authorization: `Bearer ${e2e.relay.adminKey}`, 'content-type': 'application/json' };
    const account = await fetch(`${e2e.url}/api/accounts`, { method: 'POST', headers: admin, body: '{"name":"leak"}' });
    accountKey = ((await account.json()) as { access_key: string }).access_key;
    const created = await fetch(`${e2e.url}/api/tokens`, {
      method: 'POST',
      headers: { authorization: `Bearer ${accountKey}`, 'content-type': 'application/json' },
      body: '{"name":"leak"}',
    });
    token = ((await created.json()) as { key: string }).key;
  });
  afterAll(async () => {
    await e2e.close();
    await upstream.close();
  });

  it('sends, stores and logs none of the channel keys, whatever field and spelling carries them', async () => {
    const answers: string[] = [];
    const pathsMissed: string[] = [];
    for (const channel of CHANNELS) {
      for (let variant = 0; variant < LEAK_VARIANTS.length; variant++) {
        for (const { stream, mode } of CASES) {
          const response = await fetch(`${e2e.url}/v1/chat/completions`, {
            method: 'POST',
            headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
            body: JSON.stringify({
              model: channel.model,
              stream,
              max_tokens: 16,
              messages: [{ role: 'user', content: `mode=${mode} variant=${variant}` }],
            }),
          });
          const text = await response.text();
          const name = `${channel.type} ${mode} stream=${stream} variant=${variant}`;
          // The path under test was taken: an error answer, or a stream ending in an error event.
          const taken = mode === 'midstream' ? /^data: \{"error":/m.test(text) : response.status === (mode === 'status:400' ? 400 : 502);
          if (!taken) pathsMissed.push(`${name}: ${response.status}`);
          answers.push(`${name}: ${text}`);
        }
      }
    }
    const rows = await e2e.usageRows(CHANNELS.length * LEAK_VARIANTS.length * CASES.length);

    expect(answers.filter((answer) => leaked(answer).length > 0)).toEqual([]);
    expect(rows.filter((row) => row.errorCode === null)).toEqual([]);
    expect(leaked(JSON.stringify(rows))).toEqual([]);
    for (const key of [e2e.relay.adminKey, accountKey]) {
      for (let page = 1; page <= 5; page++) {
        const logs = await fetch(`${e2e.url}/api/logs?per_page=20&page=${page}`, { headers: { authorization: `Bearer ${key}` } });
        const text = await logs.text();
        expect(logs.status).toBe(200);
        expect(leaked(text)).toEqual([]);
      }
    }
    expect(lines.length).toBeGreaterThan(0);
    expect(lines.filter((line) => leaked(line).length > 0)).toEqual([]);
    expect(pathsMissed).toEqual([]);
  });
});
