import { filterVerdicts } from './azure-errors';

/**
 * Azure's content-filter annotations on answers and streams
 * (https://learn.microsoft.com/en-us/azure/ai-foundry/openai/concepts/content-filter-annotations).
 */
export type Json = Record<string, unknown>;

/** The prompt's verdicts, as Azure puts them on every answer and on a stream's first chunk. */
export const promptFilterResults = (): Json[] => [{ prompt_index: 0, content_filter_results: { ...filterVerdicts(false), jailbreak: { filtered: false, detected: false } } }];

/** The first chunk of every Azure stream: the prompt's verdicts, nothing else (empty `id`, `model`, `object`). */
export const preambleChunk = (): Json => ({ choices: [], created: 0, id: '', model: '', object: '', prompt_filter_results: promptFilterResults() });

/** Whether a streamed choice carries output (a chat delta's content or tool calls, a completion's text). */
function speaks(choice: Json): boolean {
  const delta = choice['delta'];
  if (typeof delta === 'object' && delta !== null) {
    const { content, tool_calls: calls } = delta as Json;
    return (typeof content === 'string' && content !== '') || Array.isArray(calls);
  }
  return typeof choice['text'] === 'string' && choice['text'] !== '';
}

/** A streamed chunk with each choice annotated as Azure does: the verdicts on a piece of output, `{}` on the others. */
export function annotateChunk(chunk: { choices: readonly object[] }, filtered = false): Json {
  const choices = chunk.choices.map((choice) => ({ content_filter_results: speaks(choice as Json) || filtered ? filterVerdicts(filtered) : {}, ...choice }));
  return { ...chunk, choices };
}

/** A whole answer as Azure sends it: the prompt's verdicts, and each choice's. */
export function annotateAnswer(answer: { choices: readonly object[] }): Json {
  return { ...answer, choices: answer.choices.map((choice) => ({ content_filter_results: filterVerdicts(false), ...choice })), prompt_filter_results: promptFilterResults() };
}
