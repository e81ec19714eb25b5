export { startUpstreamSim } from './sim-server';
export type { AnthropicHeadersSeen, RecordedRequest, SimFault, UpstreamSim, UpstreamSimOptions } from './sim-types';
export { decideAnswer, countPromptTokens, trailingToolResults, withToolPreamble, type AnswerPlan } from './decide-answer';
export { anthropicToInternalRequest } from './anthropic/to-internal-request';
export type {
  AnthropicMessageResponse,
  AnthropicModelList,
  AnthropicStreamEvent,
  AnthropicUsage,
  CountTokensRequest,
  CountTokensResponse,
  MessagesRequest,
} from './anthropic/anthropic-api';
export { signThinking, verifyThinkingSignature } from './anthropic/thinking-signature';
export { defaultAnthropicBetas } from './anthropic/anthropic-headers';
export { defaultAnthropicModels } from './anthropic/anthropic-models';
export { geminiToInternalRequest } from './gemini/to-internal-request';
export { thoughtSignatureFor } from './gemini/thought-signature';
export type { GenerateContentRequest, GenerateContentResponse } from './gemini/gemini-api';
export { selectTools, toolFitsText, type ToolSelection } from './select-tools';
export { argumentsFromSchema, argumentsJsonFromSchema, exampleFromSchema } from './args-from-schema';
export { spacedJson, structuredAnswerText } from './structured-answer';
export { responsesToInternalRequest } from './responses/to-internal-request';
export { listedInputItems } from './responses/input-items';
export type { ResponseBody, ListedItem, OutputItem } from './responses/responses-wire';
export { buildChatChunks, buildChatCompletion, type AnswerContent, type CompletionMeta } from './build-chat-completion';
export { parseFaultSpec, readDirectives, type DirectivesResult, type RequestDirectives } from './faults';
export { countTokens, splitIntoStreamTokens } from './tokens';
