import { anthropicModelFacts, factsFor } from '../model-facts';
import type { MessagesRequest } from './anthropic-api';
import { thinkingIsOn } from './check-anthropic-thinking';

/**
 * What the Messages API refuses for the model named in `request` (400 `invalid_request_error`,
 * the message returned here), undefined when it takes the request or the table does not know
 * the model.
 */
export function refuseForModel(request: MessagesRequest): string | undefined {
  const facts = factsFor(anthropicModelFacts, request.model);
  if (!facts) return undefined;
  const id = facts.canonicalId(request.model);
  if (request.max_tokens > facts.maxOutputTokens) {
    // "max_tokens: 128001 > 64000, which is the maximum allowed number of output tokens for claude-opus-4-5-20251101":
    // https://github.com/anthropics/claude-code/issues/24451, https://github.com/BerriAI/litellm/pull/15715
    return `max_tokens: ${request.max_tokens} > ${facts.maxOutputTokens}, which is the maximum allowed number of output tokens for ${id}`;
  }
  if (!facts.thinking && thinkingIsOn(request.thinking)) {
    // "'claude-3-5-haiku-20241022' does not support thinking.": https://github.com/anthropics/claude-code/issues/11388
    return `'${id}' does not support thinking.`;
  }
  if (facts.adaptiveOnly && request.thinking?.type === 'enabled') {
    // https://github.com/AAswordman/Operit/pull/568 (Opus 4.8 / 4.7 answer 400 with these words)
    return '"thinking.type.enabled" is not supported for this model. Use "thinking.type.adaptive" and "output_config.effort" to control thinking behavior.';
  }
  if (request.thinking?.type === 'enabled' && (request.tool_choice?.type === 'any' || request.tool_choice?.type === 'tool')) {
    // https://platform.claude.com/docs/en/build-with-claude/extended-thinking (with thinking, tool_choice auto or none only);
    // the words as quoted by maximhq/bifrost (TestToAnthropicChatRequest_StructuredOutput_ToolConversion_ThinkingEffort).
    // Adaptive thinking takes a forced tool: test-fixtures/anthropic-inbound/cassette-count-tokens-tools-thinking.yaml
    // (Opus 4.6, tool_choice any, answered).
    return 'Thinking may not be enabled when tool_choice forces tool use.';
  }
  if (thinkingIsOn(request.thinking) && request.temperature !== undefined && request.temperature !== 1) {
    // https://github.com/mnfst/modelparams.dev/issues/214 (the current wording, with adaptive mode);
    // before adaptive thinking: https://github.com/Hk-Gosuto/ChatGPT-Next-Web-LangChain/issues/345
    return (
      '`temperature` may only be set to 1 when thinking is enabled or in adaptive mode. ' +
      'Please consult our documentation at https://platform.claude.com/docs/en/build-with-claude/extended-thinking'
    );
  }
  if (facts.oneSampler && request.temperature !== undefined && request.top_p !== undefined) {
    // Sonnet 4.5: https://github.com/langfuse/langfuse/issues/9882; Opus 4.1: https://github.com/anomalyco/opencode/issues/1644;
    // Sonnet 4.6: https://github.com/skydiscover-ai/skydiscover/issues/15
    return '`temperature` and `top_p` cannot both be specified for this model. Please use only one.';
  }
  return undefined;
}
