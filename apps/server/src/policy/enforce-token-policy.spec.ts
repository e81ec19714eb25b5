import { RelayError } from '@chat-relay/wire';
import { assertIpAllowed, assertModelAllowed, enforceRateLimits, enforceTokenPolicy, recordTokenUsage, type InFlightSlot, type PolicyToken } from './enforce-token-policy';
import { InMemoryRateLimiter } from './rate-limiter';

const token = (policy: Partial<PolicyToken> = {}): PolicyToken => ({
  id: 1,
  models: null,
  allowedIps: null,
  rateLimit: null,
  ...policy,
});

async function rejection(promise: Promise<unknown>): Promise<RelayError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof RelayError) return error;
    throw error;
  }
  throw new Error('expected a RelayError');
}

describe('enforceTokenPolicy', () => {
  let limiter: InMemoryRateLimiter;
  beforeEach(() => (limiter = new InMemoryRateLimiter()));

  it('a token without policy passes with no headers', async () => {
    await expect(enforceTokenPolicy(limiter, { token: token(), clientIp: '203.0.113.9', model: 'gpt-4o' })).resolves.toEqual({});
  });

  it('403 permission_error / ip_not_allowed naming the address', async () => {
    const error = await rejection(
      enforceTokenPolicy(limiter, { token: token({ allowedIps: ['10.0.0.0/8'] }), clientIp: '203.0.113.9' }),
    );
    expect(error.toBody()).toEqual({
      error: {
        type: 'permission_error',
        code: 'ip_not_allowed',
        param: null,
        message: 'Requests from 203.0.113.9 are not allowed for this API key.',
      },
    });
    expect(error.status).toBe(403);
  });

  it('an unknown client address is refused when there is an allow-list', async () => {
    const error = await rejection(enforceTokenPolicy(limiter, { token: token({ allowedIps: ['0.0.0.0/0'] }), clientIp: undefined }));
    expect(error.code).toBe('ip_not_allowed');
  });

  it('403 permission_error / model_not_allowed naming the model', async () => {
    const policy = token({ models: ['gpt-4o-mini', '*-gizmo-*'] });
    const error = await rejection(enforceTokenPolicy(limiter, { token: policy, clientIp: '::1', model: 'gpt-4o' }));
    expect(error.status).toBe(403);
    expect(error.toBody().error).toEqual({
      type: 'permission_error',
      code: 'model_not_allowed',
      param: 'model',
      message: "This API key is not allowed to use the model 'gpt-4o'.",
    });
    await expect(enforceTokenPolicy(limiter, { token: policy, clientIp: '::1', model: 'gpt-4o-gizmo-g-abc' })).resolves.toEqual({});
  });

  it('routes that name no model skip the model allow-list', async () => {
    await expect(enforceTokenPolicy(limiter, { token: token({ models: [] }), clientIp: '::1' })).resolves.toEqual({});
  });

  it('429 rate_limit_error / rate_limit_exceeded with Retry-After and the x-ratelimit-* headers', async () => {
    const policy = token({ rateLimit: { rpm: 2, tpm: null, concurrency: null } });
    const first = await enforceTokenPolicy(limiter, { token: policy, clientIp: '::1' });
    expect(first).toMatchObject({ 'x-ratelimit-limit-requests': '2', 'x-ratelimit-remaining-requests': '1' });
    await enforceTokenPolicy(limiter, { token: policy, clientIp: '::1' });
    const error = await rejection(enforceTokenPolicy(limiter, { token: policy, clientIp: '::1' }));
    expect(error.status).toBe(429);
    expect(error.type).toBe('rate_limit_error');
    expect(error.code).toBe('rate_limit_exceeded');
    expect(error.message).toMatch(/^Rate limit reached for this API key on requests per minute \(rpm\): limit 2\. Please try again in \d+ seconds?\.$/);
    expect(error.headers).toMatchObject({
      'retry-after': expect.stringMatching(/^[1-9]\d*$/),
      'x-ratelimit-limit-requests': '2',
      'x-ratelimit-remaining-requests': '0',
      'x-ratelimit-reset-requests': expect.stringMatching(/^(\d+m)?\d+(\.\d+)?s$|^\d+ms$/),
    });
  });

  it('refusals by the allow-lists do not use up the rpm', async () => {
    const policy = token({ models: ['gpt-4o-mini'], rateLimit: { rpm: 1, tpm: null, concurrency: null } });
    for (let i = 0; i < 3; i++) {
      await rejection(enforceTokenPolicy(limiter, { token: policy, clientIp: '::1', model: 'gpt-4o' }));
    }
    await expect(enforceTokenPolicy(limiter, { token: policy, clientIp: '::1', model: 'gpt-4o-mini' })).resolves.toMatchObject({
      'x-ratelimit-remaining-requests': '0',
    });
  });

  it('tpm: tokens recorded after a request count against the next ones', async () => {
    const policy = token({ rateLimit: { rpm: null, tpm: 100, concurrency: null } });
    await enforceTokenPolicy(limiter, { token: policy, clientIp: '::1' });
    await recordTokenUsage(limiter, policy, 100);
    const error = await rejection(enforceTokenPolicy(limiter, { token: policy, clientIp: '::1' }));
    expect(error.message).toContain('tokens per minute (tpm): limit 100');
    expect(error.headers['x-ratelimit-remaining-tokens']).toBe('0');
  });

  it('records tokens only for tokens that have a tpm', async () => {
    await recordTokenUsage(limiter, token({ rateLimit: { rpm: 5, tpm: null, concurrency: null } }), 100);
    await recordTokenUsage(limiter, token(), 100);
    expect(limiter.trackedTokens).toBe(0);
  });

  it('the pieces the admission middleware calls in turn: address, model, then rate limits', async () => {
    expect(() => assertIpAllowed(token({ allowedIps: ['10.0.0.1'] }), '10.0.0.2')).toThrow(expect.objectContaining({ code: 'ip_not_allowed' }));
    expect(() => assertModelAllowed(token({ models: ['gpt-4o-mini'] }), 'gpt-4o')).toThrow(expect.objectContaining({ code: 'model_not_allowed' }));
    const limited = token({ rateLimit: { rpm: null, tpm: null, concurrency: 1 } });
    const slot: InFlightSlot = { releaseSlot: null };
    await enforceRateLimits(limiter, limited, slot);
    // The slot is held until given back: a second request is refused, and after the release admitted.
    expect((await rejection(Promise.resolve().then(() => enforceRateLimits(limiter, limited, { releaseSlot: null })))).code).toBe('concurrency_limit_exceeded');
    slot.releaseSlot?.();
    await expect(enforceRateLimits(limiter, limited, { releaseSlot: null })).resolves.toEqual({});
  });
});
