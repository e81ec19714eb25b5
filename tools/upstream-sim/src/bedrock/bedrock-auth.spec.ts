import { startUpstreamSim } from '../sim-server';
import type { UpstreamSim } from '../sim-types';
import { acceptedBedrockKeys, callBedrock, modelPath, testAccessKey, testBedrockApiKey, testSessionKey } from './bedrock-test-client';

// SigV4 as Bedrock checks it: https://docs.aws.amazon.com/IAM/latest/UserGuide/reference_sigv-troubleshooting.html
let sim: UpstreamSim;
beforeAll(async () => {
  sim = await startUpstreamSim({ acceptedKeys: acceptedBedrockKeys });
});
afterAll(() => sim.close());
beforeEach(() => sim.reset());

const path = modelPath('anthropic.claude-3-haiku-20240307-v1:0', 'invoke');
const body = { anthropic_version: 'bedrock-2023-05-31', max_tokens: 50, messages: [{ role: 'user', content: 'Hello there' }] };

async function refusal(response: Response): Promise<[number, string | null, string]> {
  const answer = (await response.json()) as { message: string };
  return [response.status, response.headers.get('x-amzn-errortype'), answer.message];
}

describe('Bedrock credentials', () => {
  it('answers a request signed with a known access key, the model id escaped in the signed path', async () => {
    const response = await callBedrock(sim, { path, body });
    expect(response.status).toBe(200);
    expect(((await response.json()) as { type: string }).type).toBe('message');
    expect(sim.requests[0]?.path).toBe('/model/anthropic.claude-3-haiku-20240307-v1%3A0/invoke');
  });

  it('refuses an unknown access key id as AWS does', async () => {
    const response = await callBedrock(sim, { path, body, key: { ...testAccessKey, accessKeyId: 'AKIAUNKNOWN000000000' } });
    expect(await refusal(response)).toEqual([403, 'UnrecognizedClientException', 'The security token included in the request is invalid.']);
  });

  it('refuses a signature made with another secret, and bytes changed after signing', async () => {
    const wrongSecret = await callBedrock(sim, { path, body, key: { ...testAccessKey, secretAccessKey: 'not/the/secret' } });
    const expected = [
      403,
      'InvalidSignatureException',
      'The request signature we calculated does not match the signature you provided. Check your AWS Secret Access Key and signing method. Consult the service documentation for details.',
    ];
    expect(await refusal(wrongSecret)).toEqual(expected);
    const tampered = await callBedrock(sim, { path, body, tamper: (text) => text.replace('Hello', 'Howdy') });
    expect(await refusal(tampered)).toEqual(expected);
  });

  it('refuses a signature more than 5 minutes old, naming the window', async () => {
    const response = await callBedrock(sim, { path, body, signedAt: new Date(Date.now() - 10 * 60 * 1000) });
    const [status, type, message] = await refusal(response);
    expect([status, type]).toEqual([403, 'InvalidSignatureException']);
    expect(message).toMatch(/^Signature expired: \d{8}T\d{6}Z is now earlier than \d{8}T\d{6}Z \(\d{8}T\d{6}Z - 5 min\.\)$/);
  });

  it('needs the session token of temporary credentials', async () => {
    expect((await callBedrock(sim, { path, body, key: testSessionKey })).status).toBe(200);
    const { sessionToken: _token, ...withoutToken } = testSessionKey;
    expect(await refusal(await callBedrock(sim, { path, body, key: withoutToken }))).toEqual([403, 'UnrecognizedClientException', 'The security token included in the request is invalid.']);
  });

  it('takes a Bedrock API key as a bearer when accepted, and refuses another', async () => {
    expect((await callBedrock(sim, { path, body, key: { bearer: testBedrockApiKey } })).status).toBe(200);
    expect((await refusal(await callBedrock(sim, { path, body, key: { bearer: 'ABSKnot-a-key' } })))[1]).toBe('UnrecognizedClientException');
  });

  it('refuses a request without credentials', async () => {
    expect(await refusal(await callBedrock(sim, { path, body, key: null }))).toEqual([403, 'MissingAuthenticationTokenException', 'Missing Authentication Token']);
  });

  it('checks the control plane\'s model list the same way', async () => {
    expect((await callBedrock(sim, { method: 'GET', path: '/foundation-models?byProvider=anthropic' })).status).toBe(200);
    expect((await callBedrock(sim, { method: 'GET', path: '/foundation-models', key: { ...testAccessKey, secretAccessKey: 'wrong' } })).status).toBe(403);
  });
});
