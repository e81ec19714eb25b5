export { startUpstreamSim } from './sim-server';
export type { RecordedRequest, SimFault, UpstreamSim, UpstreamSimOptions } from './sim-types';
export { decideAnswer, countPromptTokens, trailingToolResults, type AnswerPlan } from './decide-answer';
export { selectTools, toolFitsText, type ToolSelection } from './select-tools';
export { argumentsFromSchema, argumentsJsonFromSchema } from './args-from-schema';
export { buildChatChunks, buildChatCompletion, type AnswerContent, type CompletionMeta } from './build-chat-completion';
export { parseFaultSpec, readDirectives, type DirectivesResult, type RequestDirectives } from './faults';
export { countTokens, splitIntoStreamTokens } from './tokens';
