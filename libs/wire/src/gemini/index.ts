export { geminiAdapter } from './gemini-adapter';
export { geminiEmbeddingsAdapter } from './gemini-embeddings-adapter';
export { geminiImagesAdapter } from './gemini-images-adapter';
