import type { FuzzContext } from './fuzz-context';
import type { RawOutcome, RawRequest } from './raw-http';
import { reachedResponsesPipeline } from './responses-accounting';
import { foreignAccessProblem } from './responses-ownership';

const context = {
  token: 'sk-main',
  responses: { token: 'sk-responses', previous: { native: 'resp_n', bridged: 'resp_b', chained: 'resp_c', unstored: 'resp_u' }, deletable: ['resp_d'] },
} as unknown as FuzzContext;

const asCaller = (key: string, method: string, target: string, body?: unknown): RawRequest => ({
  method,
  target,
  headers: [['Authorization', `Bearer ${key}`], ['Content-Type', 'application/json']],
  ...(body === undefined ? {} : { body: Buffer.from(JSON.stringify(body)) }),
});
const answered = (status: number, requestId = true): RawOutcome => ({
  kind: 'response',
  response: { status, headers: requestId ? { 'x-request-id': 'req_1' } : {}, body: Buffer.from('{}'), aborted: false },
});

describe('foreignAccessProblem', () => {
  it.each([
    ['GET', '/v1/responses/resp_b'],
    ['GET', '/v1/responses/resp_n/input_items?limit=1'],
    ['POST', '/v1/responses/resp_c/cancel'],
    ['DELETE', '/v1/responses/resp_d'],
    ['GET', '/V1/Responses/resp%5Fb'],
  ])("finds another caller's 2xx on %s %s, and not the owner's", (method, target) => {
    expect(foreignAccessProblem(context, asCaller('sk-main', method, target), answered(200))).toContain('another caller');
    expect(foreignAccessProblem(context, asCaller('sk-responses', method, target), answered(200))).toBeUndefined();
    expect(foreignAccessProblem(context, asCaller('sk-main', method, target), answered(404))).toBeUndefined();
  });

  it("finds another caller continuing a stored response, not one continuing an unstored or unknown id", () => {
    const continuing = (id: string) => asCaller('sk-main', 'POST', '/v1/responses', { model: 'gpt-4.1', input: 'hi', previous_response_id: id });
    expect(foreignAccessProblem(context, continuing('resp_b'), answered(200))).toContain('continued a stored response');
    expect(foreignAccessProblem(context, continuing('resp_u'), answered(200))).toBeUndefined();
    expect(foreignAccessProblem(context, asCaller('sk-responses', 'POST', '/v1/responses', { previous_response_id: 'resp_b' }), answered(200))).toBeUndefined();
  });
});

describe('reachedResponsesPipeline', () => {
  it('counts POST /v1/responses with the family token alone, answered by a route', () => {
    expect(reachedResponsesPipeline(context, asCaller('sk-responses', 'POST', '/v1/responses'), answered(400))).toBe(true);
    expect(reachedResponsesPipeline(context, asCaller('sk-responses', 'POST', '/v1/responses/?x=1'), answered(200))).toBe(true);
    expect(reachedResponsesPipeline(context, asCaller('sk-responses', 'POST', '/v1/responses'), answered(400, false))).toBe(false);
    expect(reachedResponsesPipeline(context, asCaller('sk-main', 'POST', '/v1/responses'), answered(200))).toBe(false);
    expect(reachedResponsesPipeline(context, asCaller('sk-responses', 'GET', '/v1/responses/resp_b'), answered(200))).toBe(false);
    const twoKeys: RawRequest = { ...asCaller('sk-responses', 'POST', '/v1/responses'), headers: [['Authorization', 'Bearer sk-responses'], ['x-api-key', 'sk-responses']] };
    expect(reachedResponsesPipeline(context, twoKeys, answered(200))).toBe(false);
    expect(reachedResponsesPipeline(context, asCaller('sk-responses', 'POST', '/v1/responses'), { kind: 'timeout' })).toBe(false);
  });
});
