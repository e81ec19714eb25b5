export { geminiAdapter } from './upstream/gemini-adapter';
export { geminiEmbeddingsAdapter } from './upstream/gemini-embeddings-adapter';
export { geminiImagesAdapter } from './upstream/gemini-images-adapter';
export { dropRepeatedFunctionResponses } from './caller/drop-repeated-function-responses';
export { convertGenerateContentToChat, type ConvertedGenerateContent, type ConvertGenerateContentArgs } from './caller/convert-generate-content-to-chat';
export { convertChatToGenerateContent, type ConvertChatToGenerateContentArgs } from './caller/convert-chat-to-generate-content';
export { ChatToGeminiStream, type ChatToGeminiStreamOptions } from './caller/chat-to-gemini-stream';
export { geminiNativeAdapter } from './native/gemini-native-adapter';
export { toGeminiError, type GeminiErrorAnswer } from './caller/gemini-error-body';
export {
  convertEmbedContentsToEmbeddings,
  convertEmbeddingsToGemini,
  type BridgedEmbeddingRequest,
  type ConvertedEmbedContents,
  type ConvertEmbedContentsArgs,
} from './caller/convert-embed-contents-to-embeddings';
