import { generateWebhookSecret, signatureHeader, verifyWebhookSignature, webhookSecretHint } from './sign-webhook';

const SECRET = 'whsec_0123456789abcdefghijklmnopqrstuv';
const BODY = '{"id":"evt_1","type":"test"}';
const T = 1_767_225_600;

describe('webhook signatures', () => {
  it('signs "<t>.<raw body>" with HMAC-SHA256: a vector computed apart (Python hmac)', () => {
    expect(signatureHeader(SECRET, T, BODY)).toBe(`t=${T},v1=dc9adcea7c5443327a13d57a8a076bfe8eee62f8ee7a9fcb7f04258337d8b106`);
  });

  it('verifies its own header, and refuses another body, another secret, an old time or a malformed header', () => {
    const header = signatureHeader(SECRET, T, BODY);
    expect(verifyWebhookSignature(SECRET, header, BODY, T * 1000)).toBe(true);
    expect(verifyWebhookSignature(SECRET, header, BODY.replace('test', 'tesT'), T * 1000)).toBe(false);
    expect(verifyWebhookSignature(`${SECRET}x`, header, BODY, T * 1000)).toBe(false);
    expect(verifyWebhookSignature(SECRET, header, BODY, (T + 301) * 1000)).toBe(false);
    expect(verifyWebhookSignature(SECRET, `t=${T}`, BODY, T * 1000)).toBe(false);
    expect(verifyWebhookSignature(SECRET, `t=${T},v1=zz`, BODY, T * 1000)).toBe(false);
  });

  it('generates whsec_ and 32 base62 characters, different each time; the hint is the last four', () => {
    const secret = generateWebhookSecret();
    expect(secret).toMatch(/^whsec_[0-9A-Za-z]{32}$/);
    expect(generateWebhookSecret()).not.toBe(secret);
    expect(webhookSecretHint(secret)).toBe(`...${secret.slice(-4)}`);
  });
});
