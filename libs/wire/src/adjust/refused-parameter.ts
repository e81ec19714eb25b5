import type { ParameterRefusal, UpstreamFormat } from './adjustment';

/** The upstream's message, from any of the three error shapes (`{error: {message}}`), else the text itself. */
function messageOf(text: string): string {
  try {
    const parsed: unknown = JSON.parse(text);
    const first = Array.isArray(parsed) ? (parsed[0] as unknown) : parsed; // Gemini streams its error as an array
    if (typeof first === 'object' && first !== null) {
      const error = (first as Record<string, unknown>)['error'];
      if (typeof error === 'object' && error !== null) {
        const message = (error as Record<string, unknown>)['message'];
        if (typeof message === 'string') return message;
      }
    }
  } catch {
    // not JSON: the text as it came
  }
  return text;
}

const snakeOf = (name: string): string => name.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);

/** A Gemini generationConfig field (either spelling) → the hub field it came from. */
const GEMINI_FIELDS: Readonly<Record<string, string>> = {
  top_k: 'top_k',
  top_p: 'top_p',
  temperature: 'temperature',
  presence_penalty: 'presence_penalty',
  frequency_penalty: 'frequency_penalty',
  seed: 'seed',
  candidate_count: 'n',
  response_logprobs: 'logprobs',
  logprobs: 'top_logprobs',
  thinking_config: 'reasoning_effort',
  thinking_budget: 'reasoning_effort',
  thinking_level: 'reasoning_effort',
  max_output_tokens: 'max_tokens',
};

/**
 * OpenAI Chat Completions (400 `invalid_request_error`):
 * - `Unrecognized request argument supplied: top_k` (and reasoning_effort on gpt-4o: langchain_dart#712);
 * - `Unsupported parameter: 'max_tokens' is not supported with this model. Use 'max_completion_tokens' instead.`;
 * - `Unsupported value: 'temperature' does not support 0.2 with this model. Only the default (1) value is supported.`;
 * - `Unknown parameter: 'top_k'.` (the Responses wording);
 * - `max_tokens is too large: 32000. This model supports at most 16384 completion tokens, whereas you provided 32000.`
 *   (ChatGPTNextWeb/NextChat#3195).
 */
function openAiRefusal(message: string): ParameterRefusal | undefined {
  const limit = /^(max_tokens|max_completion_tokens) is too large: \d+\. This model supports at most (\d+) completion tokens/.exec(message);
  if (limit?.[2]) return { field: 'max_tokens', atMost: Number(limit[2]) };
  const named =
    /^Unrecognized request argument supplied: ([A-Za-z_][\w.]*)/.exec(message) ??
    /^Unsupported (?:parameter|value): '([A-Za-z_][\w.]*)'/.exec(message) ??
    /^Unknown parameter: '([A-Za-z_][\w.]*)'/.exec(message);
  return named?.[1] ? { field: named[1] } : undefined;
}

/**
 * Anthropic Messages (400 `invalid_request_error`):
 * - ``\`temperature\` and \`top_p\` cannot both be specified for this model. Please use only one.`` (langfuse#9882): top_p goes;
 * - `max_tokens: 64001 > 64000, which is the maximum allowed number of output tokens for claude-sonnet-4-5-20250929`
 *   (anthropics/claude-code#24451);
 * - `top_k: Extra inputs are not permitted` (the pydantic wording for a top-level field: amrit110/oli#7).
 */
function anthropicRefusal(message: string): ParameterRefusal | undefined {
  if (/^`temperature` and `top_p` cannot both be specified/.test(message)) return { field: 'top_p' };
  const limit = /^max_tokens: \d+ > (\d+), which is the maximum allowed number of output tokens/.exec(message);
  if (limit?.[1]) return { field: 'max_tokens', atMost: Number(limit[1]) };
  const extra = /^([a-z_]+): Extra inputs are not permitted/.exec(message);
  return extra?.[1] ? { field: extra[1] } : undefined;
}

/**
 * Gemini generateContent (400 `INVALID_ARGUMENT`):
 * - `Invalid JSON payload received. Unknown name "topK" at 'generation_config': Cannot find field.`
 *   (MinLL/SkyrimNet-GamePlugin#77 shows `Unknown name "top_k"`);
 * - `Budget 0 is invalid. This model only works in thinking mode.` (snailyp/gemini-balance#206),
 *   `Thinking is not enabled for models/…` (lobehub#7985), `Thinking level is not supported for this model.`
 *   (RooCodeInc/Roo-Code#10700): the thinking config goes;
 * - `… has a maxOutputTokens value of 70000 but the supported range is from 1 (inclusive) to 65537 (exclusive).`
 *   (BerriAI/litellm#10548).
 */
function geminiRefusal(message: string): ParameterRefusal | undefined {
  const limit = /maxOutputTokens value of \d+ but the supported range is from 1 \(inclusive\) to (\d+) \(exclusive\)/.exec(message);
  if (limit?.[1]) return { field: 'max_tokens', atMost: Number(limit[1]) - 1 };
  if (/^Budget 0 is invalid\. This model only works in thinking mode|^Thinking is not enabled for |^Thinking level is not supported/.test(message)) {
    return { field: 'reasoning_effort' };
  }
  const unknown = /Unknown name "([A-Za-z_]+)" at 'generation_config(?:\.thinking_config)?'/.exec(message);
  const field = unknown?.[1] ? GEMINI_FIELDS[snakeOf(unknown[1])] : undefined;
  return field ? { field } : undefined;
}

/**
 * The hub field an upstream's 400 refuses by name, read from the provider's own error text;
 * undefined for any other failure. The relay then decides whether it may leave the field out
 * (only one it adapted or that the caller sent as a hint).
 */
export function refusedParameter(format: UpstreamFormat, status: number, text: string): ParameterRefusal | undefined {
  if (status !== 400) return undefined;
  const message = messageOf(text);
  if (format === 'openai') return openAiRefusal(message);
  if (format === 'anthropic') return anthropicRefusal(message);
  return geminiRefusal(message);
}
