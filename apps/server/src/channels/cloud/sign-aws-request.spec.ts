import { createHash } from 'node:crypto';
import { signAwsRequest } from './sign-aws-request';

/** AWS's published Signature Version 4 test suite credentials (https://docs.aws.amazon.com/IAM/latest/UserGuide/signature-v4-test-suite.html). */
const EXAMPLE = { accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY' };
const AT = new Date('2015-08-30T12:36:00Z');

describe('signAwsRequest', () => {
  it("signs AWS's get-vanilla test case to the published signature", async () => {
    const headers = await signAwsRequest({ method: 'GET', url: 'https://example.amazonaws.com/', headers: {} }, EXAMPLE, 'us-east-1', { service: 'service', now: AT, payloadHashHeader: false });
    expect(headers).toEqual({
      'x-amz-date': '20150830T123600Z',
      authorization:
        'AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20150830/us-east-1/service/aws4_request, SignedHeaders=host;x-amz-date, Signature=5fa00fa31553b73ebf1942676e86291e8372ff2a2260956d9b8aae1d763fbf31',
    });
  });

  it("signs AWS's post-x-www-form-urlencoded test case (a signed body and content type) to the published signature", async () => {
    const headers = await signAwsRequest(
      { method: 'POST', url: 'https://example.amazonaws.com/', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'Param1=value1' },
      EXAMPLE,
      'us-east-1',
      { service: 'service', now: AT, payloadHashHeader: false },
    );
    expect(headers['authorization']).toBe(
      'AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20150830/us-east-1/service/aws4_request, SignedHeaders=content-type;host;x-amz-date, Signature=ff11897932ad3f4e8b18135d722051e5ac45fc38421b1da7b9d196a0fe09473a',
    );
  });

  it('signs a Bedrock call over its exact bytes, with the payload hash and a session token, and never returns host', async () => {
    const body = '{"messages":[{"role":"user","content":"héllo"}]}';
    const url = 'https://bedrock-runtime.us-east-1.amazonaws.com/model/anthropic.claude-3-5-haiku-20241022-v1%3A0/invoke';
    const headers = await signAwsRequest({ method: 'POST', url, headers: { 'content-type': 'application/json' }, body }, { ...EXAMPLE, sessionToken: 'session-token' }, 'us-east-1', { now: AT });
    expect(headers['host']).toBeUndefined();
    expect(headers['x-amz-security-token']).toBe('session-token');
    // The hash of the UTF-8 bytes sent: what undici writes for a string body.
    expect(headers['x-amz-content-sha256']).toBe(createHash('sha256').update(Buffer.from(body, 'utf8')).digest('hex'));
    expect(headers['authorization']).toMatch(/^AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE\/20150830\/us-east-1\/bedrock\/aws4_request, SignedHeaders=content-type;host;x-amz-content-sha256;x-amz-date;x-amz-security-token, Signature=[0-9a-f]{64}$/);
    // Another body, another signature: the bytes are signed.
    const other = await signAwsRequest({ method: 'POST', url, headers: { 'content-type': 'application/json' }, body: body.replace('é', 'e') }, { ...EXAMPLE, sessionToken: 'session-token' }, 'us-east-1', { now: AT });
    expect(other['authorization']).not.toBe(headers['authorization']);
  });
});
