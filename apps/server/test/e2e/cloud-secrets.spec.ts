import { createTestServiceAccount, type UpstreamSim } from '@chat-relay/upstream-sim';
import { collectingLogger } from '../cluster/redis/testing/redis-test-env';
import { SIM_KEY, startE2eRelay, type ChannelInput, type E2eRelay } from './e2e-relay';

const AWS_SECRET = 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY';
const WRONG_AWS_SECRET = 'zzWrongSecretzzK7MDENGbPxRfiCYzzzzzzzzz';
const ENTRA_SECRET = 'entra~wrong~client~secret~0123456789';

/**
 * Issue 31: "secrets (secret keys, service-account private keys) never in logs, answers,
 * /api/channels" — each cloud's credential refused through the relay at debug level, then every
 * log line, answer and admin view read for them.
 */
describe('e2e: cloud credentials never leave the database', () => {
  let e2e: E2eRelay;
  let sim: UpstreamSim;
  const log = collectingLogger('debug');
  const account = createTestServiceAccount();
  const stranger = createTestServiceAccount('stranger@acme-prod.iam.gserviceaccount.com');

  beforeAll(async () => {
    e2e = await startE2eRelay({ logger: log.logger });
    sim = await e2e.startSim({ acceptedKeys: [`AKIAIOSFODNN7EXAMPLE:${AWS_SECRET}`, SIM_KEY], vertexServiceAccounts: { [account.clientEmail]: account.publicKeyPem } });
  });
  afterAll(() => e2e.close());

  it('refused SigV4, service account and Entra credentials: answers, channel tests, /api/channels and logs hold no secret', async () => {
    const serviceAccount = JSON.stringify({ type: 'service_account', project_id: 'acme-prod', client_email: stranger.clientEmail, private_key: stranger.privateKeyPem, token_uri: sim.vertexTokenUri });
    const channels: Array<ChannelInput & { base_url: string; models: string[] }> = [
      { type: 'bedrock', base_url: sim.origin, cloud: { region: 'us-east-1' }, keys: [`AKIAIOSFODNN7EXAMPLE:${WRONG_AWS_SECRET}`], models: ['claude-opus-4-5'], model_mapping: { 'claude-opus-4-5': 'us.anthropic.claude-opus-4-5-20251101-v1:0' } },
      { type: 'vertex', base_url: sim.vertexBaseUrl, keys: [serviceAccount], models: ['gemini-2.5-flash'] },
      { type: 'azure', base_url: sim.origin, keys: [JSON.stringify({ tenant_id: 't', client_id: 'c', client_secret: ENTRA_SECRET, authority_host: sim.origin })], models: ['gpt-4o'] },
    ];
    const texts: string[] = [];
    for (const input of channels) {
      const channel = await e2e.addChannel(input.base_url, { ...input });
      const tested = await fetch(`${e2e.url}/api/channels/${channel.id}/test`, { method: 'POST', headers: { authorization: `Bearer ${e2e.relay.adminKey}`, 'content-type': 'application/json' }, body: '{}' });
      const testText = await tested.text();
      expect(JSON.parse(testText)).toMatchObject({ ok: false });
      const answer = await e2e.postChat({ model: input.models[0], max_tokens: 16, messages: [{ role: 'user', content: 'Hello there' }] });
      expect(answer.status).toBe(502);
      texts.push(testText, await answer.text());
    }
    texts.push(await (await fetch(`${e2e.url}/api/channels`, { headers: { authorization: `Bearer ${e2e.relay.adminKey}` } })).text());
    await e2e.relay.services.recorder.flush();
    const everything = [...texts, ...log.lines].join('\n');
    // The refusals were logged (so the lines were there to leak): one disabled key per cloud.
    expect(log.lines.filter((line) => line.includes('channel key disabled'))).toHaveLength(3);
    for (const secret of [WRONG_AWS_SECRET, AWS_SECRET, ENTRA_SECRET, 'PRIVATE KEY', stranger.privateKeyPem.split('\n')[1] ?? 'unreachable']) {
      expect(everything).not.toContain(secret);
    }
    // And it says which credential failed.
    expect(texts.at(-1)).toContain('AWS access key AKIA...MPLE');
    expect(texts.at(-1)).toContain(`service account ${stranger.clientEmail}`);
  });
});
