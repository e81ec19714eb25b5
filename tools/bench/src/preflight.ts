import { z } from 'zod';
import { urlFor, type Target } from './load-runner';
import type { Mode } from './report';
import { countStreamChunks, type Workload } from './workloads';

async function post(url: string, target: Target, body: string): Promise<{ status: number; text: string }> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...target.headers },
    body,
    signal: AbortSignal.timeout(10_000),
  });
  return { status: response.status, text: await response.text() };
}

function answerText(json: string): string | undefined {
  try {
    const parsed = JSON.parse(json) as { choices?: { message?: { content?: unknown } }[] };
    const content = parsed.choices?.[0]?.message?.content;
    return typeof content === 'string' ? content : undefined;
  } catch {
    return undefined;
  }
}

const EmbeddingListSchema = z.object({
  object: z.literal('list'),
  data: z.array(z.object({ index: z.number().int(), embedding: z.array(z.number()).min(1) })),
});

/**
 * Why an embeddings answer is not one vector per input — float vectors of one length, in input
 * order — or undefined when it is. A proxy that mangled the 16 vectors would otherwise be
 * measured on a cheaper answer than the others.
 */
export function embeddingsAnswerProblem(json: string, expectedVectors: number): string | undefined {
  let parsed: z.infer<typeof EmbeddingListSchema>;
  try {
    parsed = EmbeddingListSchema.parse(JSON.parse(json));
  } catch {
    return `not a list of float vectors: ${json.slice(0, 300)}`;
  }
  const { data } = parsed;
  if (data.length !== expectedVectors) return `${data.length} vectors (expected ${expectedVectors})`;
  if (data.some((item, index) => item.index !== index)) return 'vectors out of input order';
  const lengths = new Set(data.map((item) => item.embedding.length));
  if (lengths.size > 1) return `vectors of different lengths (${[...lengths].join(', ')})`;
  return undefined;
}

export interface PreflightExpectations {
  /** Chunks of the short stream, `[DONE]` not counted. */
  streamChunks: number;
  /** Vectors in the embeddings answer: one per input. */
  vectors: number;
}

export interface PreflightResult {
  /** Wrong chat answers: the target cannot be measured at all. */
  problems: string[];
  /** A wrong embeddings answer: only the embeddings row loses the target. */
  embeddingsProblems: string[];
  streamChunks: number | undefined;
}

/**
 * Sends each workload once, to the target's URL for its endpoint (none: skipped), and checks the
 * answer is the real one — a 200 with the echo, a stream of every chunk and `[DONE]`, or a vector
 * per input — so a target that answers fast with errors is caught before it is measured.
 */
export async function preflight(
  target: Target,
  workloads: Record<Mode, Workload>,
  expected: PreflightExpectations,
): Promise<PreflightResult> {
  const result: PreflightResult = { problems: [], embeddingsProblems: [], streamChunks: undefined };
  for (const workload of Object.values(workloads)) {
    const url = urlFor(target, workload.endpoint);
    if (url === undefined) continue;
    const problems = workload.endpoint === 'embeddings' ? result.embeddingsProblems : result.problems;
    try {
      const { status, text } = await post(url, target, workload.body);
      if (status !== 200) {
        problems.push(`${workload.mode}: status ${status}: ${text.slice(0, 300)}`);
      } else if (workload.endpoint === 'embeddings') {
        const problem = embeddingsAnswerProblem(text, expected.vectors);
        if (problem) problems.push(`${workload.mode}: ${problem}`);
      } else if (workload.stream) {
        const { chunks, done } = countStreamChunks(text);
        result.streamChunks = chunks;
        if (chunks !== expected.streamChunks || !done) {
          problems.push(`${workload.mode}: ${chunks} chunks (expected ${expected.streamChunks}), [DONE] ${done ? 'seen' : 'missing'}`);
        }
      } else if (!answerText(text)?.startsWith('You said:')) {
        problems.push(`${workload.mode}: unexpected answer ${text.slice(0, 300)}`);
      }
    } catch (error) {
      problems.push(`${workload.mode}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  return result;
}
