import { upstreamError, type RelayError } from '../errors/relay-error';
import { chainTransformers } from './chain-transformers';
import type { ChunkTransformer } from './chunk-transformer';
import type { SseEvent, StreamStep, StreamTransformer } from './upstream-adapter';

const chunkStep = (json: string): StreamStep => ({ kind: 'chunk', json });
const errorStep: StreamStep = { kind: 'error', error: upstreamError('cut', 'bad_response') };

/** An upstream side that turns each event's data into one chunk step, or an error step for `ERR`. */
function upstream(finishSteps: StreamStep[] = []) {
  const state = { complete: false };
  const transformer: StreamTransformer = {
    transform: (event: SseEvent) => (event.data === 'ERR' ? [errorStep] : [chunkStep(event.data)]),
    finish: () => finishSteps,
    get complete() {
      return state.complete;
    },
    usage: { promptTokens: 3, completionTokens: 4 },
    deliveredChars: 5,
    deliveredText: 'hello',
  };
  return { transformer, state };
}

/** Prefixes every chunk it sees; its finish() says it was called. */
const tagger = (tag: string): ChunkTransformer => ({
  transform: (json) => [{ kind: 'chunk', event: tag, json: `${tag}(${json})` }],
  finish: () => [{ kind: 'chunk', event: tag, json: `${tag}:end` }],
});

const jsonOf = (steps: StreamStep[]) => steps.map((step) => (step.kind === 'chunk' ? step.json : `error:${step.error.message}`));

describe('chainTransformers', () => {
  it("feeds the upstream side's chunks through the chunk transformer; error steps pass through unchanged", () => {
    const { transformer } = upstream();
    const chain = chainTransformers(transformer, tagger('a'));
    expect(jsonOf(chain.transform({ data: 'x' }))).toEqual(['a(x)']);
    const [step] = chain.transform({ data: 'ERR' });
    expect(step).toBe(errorStep);
  });

  it("finish(): the upstream side's last chunks, then the chunk transformer's closing, when the answer is complete", () => {
    const { transformer, state } = upstream([chunkStep('usage')]);
    state.complete = true;
    expect(jsonOf(chainTransformers(transformer, tagger('a')).finish())).toEqual(['a(usage)', 'a:end']);
  });

  it('a cut stream gets no closing events: it must end in an error, not a clean-looking message_stop', () => {
    const { transformer } = upstream([chunkStep('usage')]);
    expect(jsonOf(chainTransformers(transformer, tagger('a')).finish())).toEqual(['a(usage)']);
  });

  it('completeness, usage and delivered text are the upstream side’s', () => {
    const { transformer, state } = upstream();
    const chain = chainTransformers(transformer, tagger('a'));
    expect(chain.complete).toBe(false);
    state.complete = true;
    expect(chain.complete).toBe(true);
    expect([chain.usage, chain.deliveredChars, chain.deliveredText]).toEqual([{ promptTokens: 3, completionTokens: 4 }, 5, 'hello']);
  });

  it("fail(): the chunk transformer's own failure events, called on the transformer itself", () => {
    const failing: ChunkTransformer & { failures: RelayError[] } = {
      ...tagger('r'),
      failures: [],
      fail(error) {
        this.failures.push(error);
        return [{ kind: 'chunk', event: 'response.failed', json: `failed:${error.message}` }];
      },
    };
    const chain = chainTransformers(upstream().transformer, failing);
    const failure = upstreamError('broke', 'bad_response');
    expect(jsonOf(chain.fail?.(failure) ?? [])).toEqual(['failed:broke']);
    expect(failing.failures).toEqual([failure]);
  });

  it('no fail() when the chunk transformer has none: the framing writes its generic error event', () => {
    expect(chainTransformers(upstream().transformer, tagger('a')).fail).toBeUndefined();
  });
});
