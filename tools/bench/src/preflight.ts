import type { Target } from './load-runner';
import type { Mode } from './report';
import { countStreamChunks, type Workload } from './workloads';

async function post(target: Target, body: string): Promise<{ status: number; text: string }> {
  const response = await fetch(target.url, {
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

/**
 * Sends each workload once and checks the answer is the real one — a 200 with the echo, or a
 * stream of every chunk and `[DONE]` — so a target that answers fast with errors is caught before
 * it is measured. Returns the problems found (empty: fine) and the chunk count of the stream.
 */
export async function preflight(
  target: Target,
  workloads: Record<Mode, Workload>,
  expectedChunks: number,
): Promise<{ problems: string[]; streamChunks: number | undefined }> {
  const problems: string[] = [];
  let streamChunks: number | undefined;
  for (const workload of Object.values(workloads)) {
    try {
      const { status, text } = await post(target, workload.body);
      if (status !== 200) {
        problems.push(`${workload.mode}: status ${status}: ${text.slice(0, 300)}`);
      } else if (workload.stream) {
        const { chunks, done } = countStreamChunks(text);
        streamChunks = chunks;
        if (chunks !== expectedChunks || !done) {
          problems.push(`${workload.mode}: ${chunks} chunks (expected ${expectedChunks}), [DONE] ${done ? 'seen' : 'missing'}`);
        }
      } else if (!answerText(text)?.startsWith('You said:')) {
        problems.push(`${workload.mode}: unexpected answer ${text.slice(0, 300)}`);
      }
    } catch (error) {
      problems.push(`${workload.mode}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  return { problems, streamChunks };
}
