export { startUpstreamSim } from './sim-server';
// The path prefix of the OpenAI side without the Responses API, for callers that know only the origin.
export { chatOnlyPrefix } from './handle-request';
export type { AnthropicHeadersSeen, GeminiModelEntry, RecordedMultipart, RecordedRequest, SimFault, UpstreamSim, UpstreamSimOptions } from './sim-types';
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
export { claudeCodeBetas, defaultAnthropicBetas } from './anthropic/anthropic-headers';
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
export { parseFaultSpec, readDirectives, readDirectivesOf, type DirectivesResult, type RequestDirectives } from './faults';
export { countTokens, splitIntoStreamTokens } from './tokens';
export { defaultOpenAiModels } from './openai-models';
export { defaultGeminiModels } from './gemini/gemini-models';
// The endpoints beside chat: what the simulator answers, so tests can compute it.
export { answerPrompt, defaultCompletionMaxTokens } from './endpoints/build-completion';
export {
  cosineSimilarity,
  embeddingFromBase64,
  embeddingToBase64,
  embeddingVector,
  nativeEmbeddingDimensions,
} from './endpoints/embedding-vector';
export { invalidInputMessage } from './endpoints/handle-embeddings';
export { rerankScore } from './endpoints/handle-rerank';
export { flaggedWords, moderationCategories } from './endpoints/handle-moderations';
export { inputImageTokens } from './endpoints/handle-images';
export { crc32, simImageSide, simPng } from './endpoints/png';
export { mp3FrameSeconds, speechSampleRate, toneWav, wavDurationSeconds, wavHeader } from './endpoints/audio';
export { speechChunks } from './endpoints/handle-speech';
export { assumedBytesPerSecond, audioDurationSeconds, subtitleTime, toSrt, toVtt, transcriptOf, type Transcript } from './endpoints/transcript';
export { geminiImageTokens } from './gemini/gemini-image-answer';
export { defaultSampleCount } from './gemini/handle-imagen-predict';
// Tasks: the videos and songs the task APIs make, so tests can compute the bytes they must get.
export { defaultTaskDurationMs, taskProgress, type TaskProgress, type TaskTiming } from './tasks/task-clock';
export { readTaskDirectives, type TaskDirectives, type TaskOutcome } from './tasks/task-directives';
export { taskFileChunkBytes } from './tasks/send-task-file';
export {
  simulatedVideoContent,
  videoBytesPerSecond,
  type VideoContent,
  type VideoContentSource,
  type VideoContentVariant,
} from './videos/video-content';
export { videoExpirySeconds, videoFailure } from './videos/video-object';
export { defaultVideoModel, defaultVideoSeconds, defaultVideoSize, videoSecondsAccepted, videoSizesAccepted } from './videos/video-request';
export {
  defaultSunoModel,
  lyricsAbout,
  simulatedSongFile,
  simulatedSunoLyrics,
  simulatedSunoSongs,
  songsPerTask,
  type SimulatedSong,
  type SongFile,
  type SunoSongSource,
} from './suno/suno-songs';
export { sunoFailReason, type SunoTaskStatus } from './suno/suno-task';
// Web search (Tavily, SearXNG): the simulated web both read, so tests can compute the results.
export {
  isUnderDomain,
  recencyMs,
  searchHosts,
  simulatedSearchHits,
  type SearchRecency,
  type SimulatedHit,
  type SimulatedSearch,
} from './search/search-results';
export { tavilyDefaultMaxResults, tavilyDefaultNewsDays, tavilyMaxResults } from './search/handle-tavily';
export { searxngPageSize } from './search/handle-searxng';
export { createTestServiceAccount, serviceAccountJwt, mintTestToken, type TestServiceAccount } from './vertex/vertex-test-account';
