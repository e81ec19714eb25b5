import { isJsonObject, type JsonObject } from '../json/json-checks';

/**
 * Azure's content-filter annotations (https://learn.microsoft.com/en-us/azure/ai-foundry/openai/concepts/content-filter-annotations):
 * `prompt_filter_results` on an answer (and on a stream's first chunk, which has nothing else:
 * `choices: []`, empty `id`, `model` and `object`), `content_filter_results` and, with the
 * asynchronous filter, `content_filter_offsets` on each choice. OpenAI sends none of them: the
 * caller gets OpenAI's shapes, the annotations dropped and the finish reason (`content_filter`
 * when the output was filtered) kept.
 */
const ANSWER_FIELDS = ['prompt_filter_results', 'prompt_annotations'] as const;
const CHOICE_FIELDS = ['content_filter_results', 'content_filter_offsets'] as const;

/** A cheap look before parsing: most of a stream's chunks carry none (or only the empty `{}`). */
const MARKER = /"(?:prompt_filter_results|prompt_annotations|content_filter_results|content_filter_offsets)"/;

/** A choice that said nothing but its annotations: no delta, no text, no message, no finish reason. */
function saysNothing(choice: JsonObject): boolean {
  return Object.entries(choice).every(([name, value]) => name === 'index' || value === null);
}

/** The object without Azure's annotations; `dropEmpty` also drops choices that carried only annotations. */
function stripAnnotations(json: JsonObject, dropEmpty: boolean): JsonObject {
  const stripped: JsonObject = { ...json };
  for (const field of ANSWER_FIELDS) delete stripped[field];
  const choices = stripped['choices'];
  if (Array.isArray(choices)) {
    const cleaned = choices.map((choice: unknown) => {
      if (!isJsonObject(choice)) return choice;
      const copy: JsonObject = { ...choice };
      for (const field of CHOICE_FIELDS) delete copy[field];
      return copy;
    });
    stripped['choices'] = dropEmpty ? cleaned.filter((choice) => !(isJsonObject(choice) && saysNothing(choice))) : cleaned;
  }
  return stripped;
}

/**
 * One streamed chunk's data as OpenAI would have sent it: the text unchanged when it carries no
 * annotation, undefined when nothing is left for the caller (the prompt-filter preamble, a chunk
 * of the asynchronous filter's verdicts alone). Not JSON: unchanged, for the transformer to refuse.
 */
export function cleanAzureChunk(data: string): string | undefined {
  if (!MARKER.test(data)) return data;
  let json: unknown;
  try {
    json = JSON.parse(data);
  } catch {
    return data;
  }
  if (!isJsonObject(json)) return data;
  const chunk = stripAnnotations(json, true);
  const choices = chunk['choices'];
  const empty = Array.isArray(choices) && choices.length === 0;
  const carries = (field: string): boolean => chunk[field] !== undefined && chunk[field] !== null;
  if (empty && !carries('usage') && !carries('error')) return undefined;
  return JSON.stringify(chunk);
}

/** A whole answer (chat or completion) without Azure's annotations; the text unchanged when it has none. */
export function cleanAzureAnswer(text: string): string {
  if (!MARKER.test(text)) return text;
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return text;
  }
  return isJsonObject(json) ? JSON.stringify(stripAnnotations(json, false)) : text;
}
