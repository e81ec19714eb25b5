import { startUpstreamSim, type UpstreamSim } from '@chat-relay/upstream-sim';
import type { Target } from './load-runner';
import { embeddingsAnswerProblem, preflight } from './preflight';
import { buildEmbeddingInputs, buildWorkloads, embeddingInputCount, embeddingModel, expectedStreamChunks } from './workloads';

const expected = { streamChunks: expectedStreamChunks, vectors: embeddingInputCount };
const vector = (length: number): number[] => Array.from({ length }, (_, index) => index / length);
const list = (data: unknown[]): string => JSON.stringify({ object: 'list', data, model: embeddingModel });

describe('embeddingsAnswerProblem', () => {
  it('accepts one float vector per input, in input order, all of one length', () => {
    const data = Array.from({ length: 3 }, (_, index) => ({ object: 'embedding', index, embedding: vector(8) }));
    expect(embeddingsAnswerProblem(list(data), 3)).toBeUndefined();
  });

  it('names what is wrong: the count, the order, the lengths, or not a list of floats at all', () => {
    const item = (index: number, length = 8) => ({ object: 'embedding', index, embedding: vector(length) });
    expect(embeddingsAnswerProblem(list([item(0), item(1)]), 3)).toBe('2 vectors (expected 3)');
    expect(embeddingsAnswerProblem(list([item(1), item(0)]), 2)).toBe('vectors out of input order');
    expect(embeddingsAnswerProblem(list([item(0), item(1, 4)]), 2)).toBe('vectors of different lengths (8, 4)');
    // base64 strings are not the float encoding the workload asks for.
    expect(embeddingsAnswerProblem(list([{ object: 'embedding', index: 0, embedding: 'AAAA' }]), 1)).toMatch(/^not a list of float vectors/);
    expect(embeddingsAnswerProblem('{"error":{"message":"no"}}', 1)).toBe('not a list of float vectors: {"error":{"message":"no"}}');
  });
});

describe('preflight against the simulator', () => {
  let sim: UpstreamSim;
  let origin: string;
  beforeAll(async () => {
    sim = await startUpstreamSim({ host: '127.0.0.1', port: 0 });
    origin = new URL(sim.baseUrl).origin;
  });
  afterAll(() => sim.close());
  beforeEach(() => sim.reset());

  const target = (embeddings: boolean): Target => ({
    id: 'direct',
    url: `${origin}/v1/chat/completions`,
    embeddingsUrl: embeddings ? `${origin}/v1/embeddings` : undefined,
    headers: { authorization: 'Bearer sk-bench' },
    pid: process.pid,
  });

  it('finds every workload answered correctly, the 16 float vectors included', async () => {
    const result = await preflight(target(true), buildWorkloads(), expected);
    expect(result).toEqual({ problems: [], embeddingsProblems: [], streamChunks: expectedStreamChunks });
    const embeddingCalls = sim.requests.filter((request) => request.path === '/v1/embeddings');
    expect(embeddingCalls).toHaveLength(1);
  });

  it('sends nothing to a target without an embeddings URL, and keeps its chat verdict', async () => {
    const result = await preflight(target(false), buildWorkloads(), expected);
    expect(result).toEqual({ problems: [], embeddingsProblems: [], streamChunks: expectedStreamChunks });
    expect(sim.requests.map((request) => request.path)).not.toContain('/v1/embeddings');
  });

  it('counts a wrong embeddings answer against the embeddings row alone', async () => {
    const workloads = buildWorkloads();
    const fifteen = { model: embeddingModel, input: buildEmbeddingInputs(15, 200), encoding_format: 'float' };
    workloads.embeddings = { ...workloads.embeddings, body: JSON.stringify(fifteen) };
    const result = await preflight(target(true), workloads, expected);
    expect(result.problems).toEqual([]);
    expect(result.embeddingsProblems).toEqual(['embeddings: 15 vectors (expected 16)']);
  });
});
