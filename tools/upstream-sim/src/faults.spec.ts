import type { ChatCompletionRequest } from '@chat-relay/contract';
import { parseFaultSpec, readDirectives } from './faults';

const withText = (content: string, extra: Record<string, unknown> = {}): ChatCompletionRequest => ({
  model: 'gpt-4o',
  messages: [{ role: 'user', content }],
  ...extra,
});

describe('parseFaultSpec', () => {
  it('reads every fault kind', () => {
    expect(parseFaultSpec('status:503')).toEqual({ kind: 'status', status: 503 });
    expect(parseFaultSpec(' Timeout ')).toEqual({ kind: 'timeout' });
    expect(parseFaultSpec('cut')).toEqual({ kind: 'cut' });
    expect(parseFaultSpec('malformed')).toEqual({ kind: 'malformed' });
    expect(parseFaultSpec('stream-error')).toEqual({ kind: 'stream-error' });
  });

  it('rejects unknown faults and statuses outside 400-599', () => {
    expect(parseFaultSpec('status:200')).toBeUndefined();
    expect(parseFaultSpec('status:abc')).toBeUndefined();
    expect(parseFaultSpec('explode')).toBeUndefined();
  });
});

describe('readDirectives', () => {
  it('reads markers in the last user message', () => {
    expect(readDirectives(withText('hi [sim:fault=status:500] [sim:latency=50]'))).toEqual({
      kind: 'directives',
      directives: { fault: { kind: 'status', status: 500 }, latencyMsPerToken: 50 },
    });
  });

  it('reads x_sim and prefers it over markers', () => {
    const request = withText('hi [sim:fault=cut] [sim:latency=7]', { x_sim: { fault: 'timeout' } });
    expect(readDirectives(request)).toEqual({
      kind: 'directives',
      directives: { fault: { kind: 'timeout' }, latencyMsPerToken: 7 },
    });
  });

  it('names the bad field of an invalid directive', () => {
    expect(readDirectives(withText('hi', { x_sim: { fault: 'boom' } }))).toMatchObject({ param: 'x_sim.fault' });
    expect(readDirectives(withText('hi', { x_sim: { latency_ms_per_token: -1 } }))).toMatchObject({
      param: 'x_sim.latency_ms_per_token',
    });
    expect(readDirectives(withText('hi [sim:fault=boom]'))).toMatchObject({ kind: 'invalid', param: 'messages' });
  });

  it('has no directives for a plain request', () => {
    expect(readDirectives(withText('hello'))).toEqual({
      kind: 'directives',
      directives: { fault: undefined, latencyMsPerToken: undefined },
    });
  });
});
