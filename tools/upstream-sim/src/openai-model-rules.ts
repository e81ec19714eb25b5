import { factsFor, openAiModelFacts, type OpenAiModelFacts } from './model-facts';

/** OpenAI's 400 for a parameter the model refuses: `{error: {message, type: 'invalid_request_error', param, code}}`. */
export interface OpenAiRefusal {
  message: string;
  param: string | null;
  code: string | null;
}

type Body = Record<string, unknown>;

/** Set, as OpenAI reads it: a field sent as `null` counts as left out. */
const isSet = (value: unknown): boolean => value !== undefined && value !== null;

const unrecognized = (name: string): OpenAiRefusal => ({
  // "Unrecognized request argument supplied: top_k", param and code null:
  // https://github.com/xlinx/sd-webui-decadetw-auto-prompt-llm/issues/29 (top_k),
  // https://github.com/davidmigloz/langchain_dart/issues/712 (reasoning_effort on gpt-4o-mini).
  message: `Unrecognized request argument supplied: ${name}`,
  param: null,
  code: null,
});

/** `String(0.2)` is how the value reads in OpenAI's message (`does not support 0.2`, `does not support 0`). */
const numberText = (value: unknown): string => (typeof value === 'number' ? String(value) : JSON.stringify(value));

/** A reasoning model: only the default (1) of `temperature` and `top_p`, Chat Completions wording. */
function chatSamplingRefusal(body: Body): OpenAiRefusal | undefined {
  const { temperature, top_p: topP } = body;
  if (isSet(temperature) && temperature !== 1) {
    // https://github.com/gabrii/Cursor-Azure-GPT-5/issues/33, https://github.com/holoviz/lumen/pull/1087
    return {
      message: `Unsupported value: 'temperature' does not support ${numberText(temperature)} with this model. Only the default (1) value is supported.`,
      param: 'temperature',
      code: 'unsupported_value',
    };
  }
  if (isSet(topP) && topP !== 1) {
    // https://github.com/aandrew-me/tgpt/issues/333 (o1), https://github.com/HIllya51/LunaTranslator/issues/1842 (gpt-5)
    return unsupportedParameter('top_p');
  }
  return undefined;
}

function unsupportedParameter(param: string): OpenAiRefusal {
  return { message: `Unsupported parameter: '${param}' is not supported with this model.`, param, code: 'unsupported_parameter' };
}

/**
 * What OpenAI's `/v1/chat/completions` refuses for the model named in `body` (undefined for a
 * model the table does not know), in the order: `top_k`, an effort on a chat model, `max_tokens`
 * on a reasoning model, non-default sampling on a reasoning model, output tokens over the limit.
 */
export function refuseChatParameters(body: Body): OpenAiRefusal | undefined {
  const facts = typeof body['model'] === 'string' ? factsFor(openAiModelFacts, body['model']) : undefined;
  if (!facts) return undefined;
  // No OpenAI model has top_k (not in the API reference's CreateChatCompletionRequest).
  if ('top_k' in body) return unrecognized('top_k');
  if (facts.kind === 'chat' && isSet(body['reasoning_effort'])) return unrecognized('reasoning_effort');
  if (facts.kind === 'reasoning') {
    if (isSet(body['max_tokens'])) {
      // https://github.com/griptape-ai/ComfyUI-Griptape/issues/312, https://github.com/fish2018/YPrompt/issues/26
      return {
        message: "Unsupported parameter: 'max_tokens' is not supported with this model. Use 'max_completion_tokens' instead.",
        param: 'max_tokens',
        code: 'unsupported_parameter',
      };
    }
    const sampling = chatSamplingRefusal(body);
    if (sampling) return sampling;
  }
  return chatOutputRefusal(body, facts);
}

/**
 * `max_tokens is too large: 32000. This model supports at most 16384 completion tokens, whereas
 * you provided 32000.` (param `max_tokens`, code null:
 * https://github.com/ChatGPTNextWeb/NextChat/issues/3195, https://github.com/enoch3712/ExtractThinker/issues/346).
 * With `max_completion_tokens` the same sentence names that field (inferred; no quote found).
 */
function chatOutputRefusal(body: Body, facts: OpenAiModelFacts): OpenAiRefusal | undefined {
  const field = isSet(body['max_completion_tokens']) ? 'max_completion_tokens' : 'max_tokens';
  const asked = body[field];
  if (typeof asked !== 'number' || asked <= facts.maxOutputTokens) return undefined;
  return {
    message: `${field} is too large: ${asked}. This model supports at most ${facts.maxOutputTokens} completion tokens, whereas you provided ${asked}.`,
    param: field,
    code: null,
  };
}

/**
 * What OpenAI's `/v1/responses` refuses for the model named in `body` (undefined for a model the
 * table does not know).
 */
export function refuseResponsesParameters(body: Body): OpenAiRefusal | undefined {
  const facts = typeof body['model'] === 'string' ? factsFor(openAiModelFacts, body['model']) : undefined;
  if (!facts) return undefined;
  if ('top_k' in body) {
    // The Responses API names an unknown field this way ("Unknown parameter: 'reasoning.max_tokens'.",
    // code unknown_parameter: https://github.com/bestruirui/octopus/issues/31,
    // https://github.com/pydantic/pydantic-ai/issues/3653).
    return { message: "Unknown parameter: 'top_k'.", param: 'top_k', code: 'unknown_parameter' };
  }
  if ('reasoning_effort' in body) {
    // https://github.com/lobehub/lobehub/issues/8116
    return {
      message:
        "Unsupported parameter: 'reasoning_effort'. In the Responses API, this parameter has moved to 'reasoning.effort'. " +
        'Try again with the new parameter. See the API documentation for more information: https://platform.openai.com/docs/api-reference/responses/create.',
      param: null,
      code: 'unsupported_parameter',
    };
  }
  const reasoning = body['reasoning'];
  const effort = typeof reasoning === 'object' && reasoning !== null ? (reasoning as Body)['effort'] : undefined;
  // gpt-4o with reasoning.effort: https://github.com/BerriAI/litellm/pull/38842
  if (facts.kind === 'chat' && isSet(effort)) return unsupportedParameter('reasoning.effort');
  if (facts.kind === 'reasoning') {
    // o3 on the Responses API: "Unsupported parameter: 'temperature' is not supported with this model."
    // (https://github.com/ThinkInAIXYZ/deepchat/issues/655, https://github.com/appatalks/eva-agent/issues/83).
    // The default (1) is let through, as on Chat Completions.
    for (const param of ['temperature', 'top_p']) {
      if (isSet(body[param]) && body[param] !== 1) return unsupportedParameter(param);
    }
  }
  const asked = body['max_output_tokens'];
  if (typeof asked === 'number' && asked > facts.maxOutputTokens) {
    // OpenAI's wording for a number over its bound (as `decimal_above_max_value` elsewhere); the
    // exact text for this field over a model's limit was not found quoted.
    return {
      message: `Invalid 'max_output_tokens': integer above maximum value. Expected a value <= ${facts.maxOutputTokens}, but got ${asked} instead.`,
      param: 'max_output_tokens',
      code: 'integer_above_max_value',
    };
  }
  return undefined;
}
