export { geminiAdapter } from './gemini-adapter';
export { geminiEmbeddingsAdapter } from './gemini-embeddings-adapter';
export { geminiImagesAdapter } from './gemini-images-adapter';
export { convertGenerateContentToChat, type ConvertedGenerateContent, type ConvertGenerateContentArgs } from './convert-generate-content-to-chat';
export { convertChatToGenerateContent, type ConvertChatToGenerateContentArgs } from './convert-chat-to-generate-content';
export { ChatToGeminiStream, type ChatToGeminiStreamOptions } from './chat-to-gemini-stream';
export { geminiNativeAdapter } from './gemini-native-adapter';
export { toGeminiError, type GeminiErrorAnswer } from './gemini-error-body';
