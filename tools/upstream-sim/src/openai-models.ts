/**
 * The models OpenAI's `GET /v1/models` lists unless `modelsServed` says otherwise: one or more
 * for each endpoint (chat, legacy completions, embeddings, moderations, images, speech,
 * transcription). Every route answers any model; the list is what a client discovers.
 */
export const defaultOpenAiModels: readonly string[] = [
  'gpt-4o',
  'gpt-4o-mini',
  'gpt-3.5-turbo-instruct',
  'text-embedding-3-small',
  'text-embedding-3-large',
  'text-embedding-ada-002',
  'omni-moderation-latest',
  'dall-e-2',
  'dall-e-3',
  'gpt-image-1',
  'tts-1',
  'tts-1-hd',
  'gpt-4o-mini-tts',
  'whisper-1',
  'gpt-4o-transcribe',
  'gpt-4o-mini-transcribe',
];
