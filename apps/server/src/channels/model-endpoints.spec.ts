import type { Endpoint } from '@chat-relay/contract';
import { endpointsNamedBy } from './model-endpoints';

describe('endpointsNamedBy', () => {
  it.each<[string, readonly Endpoint[] | null]>([
    ['text-embedding-3-small', ['embeddings']],
    ['text-embedding-ada-002', ['embeddings']],
    ['gemini-embedding-001', ['embeddings']],
    ['bge-reranker-v2-m3', ['rerank']],
    ['jina-reranker-v2-base-multilingual', ['rerank']],
    ['omni-moderation-latest', ['moderations']],
    ['text-moderation-stable', ['moderations']],
    ['dall-e-3', ['images']],
    ['dall-e-2', ['images']],
    ['gpt-image-1', ['images']],
    ['imagen-4.0-generate-001', ['images']],
    // Gemini's image models also answer chat (text and images in one answer).
    ['gemini-2.5-flash-image', ['chat', 'images']],
    ['gemini-2.5-flash-image-preview', ['chat', 'images']],
    ['tts-1', ['audio_speech']],
    ['tts-1-hd', ['audio_speech']],
    ['gpt-4o-mini-tts', ['audio_speech']],
    ['whisper-1', ['audio_transcriptions']],
    ['gpt-4o-mini-transcribe', ['audio_transcriptions']],
    ['gpt-4o-transcribe', ['audio_transcriptions']],
    ['gpt-3.5-turbo-instruct', ['completions']],
    ['davinci-002', ['completions']],
    ['babbage-002', ['completions']],
    // Names that say nothing: every endpoint of the channel.
    ['gpt-4o', null],
    ['gpt-4o-mini', null],
    ['claude-sonnet-4-5', null],
    ['gemini-2.5-pro', null],
    ['gpt-3.5-turbo', null],
    ['gpt-4o-audio-preview', null],
    ['llama-3.1-70b-instruct', null],
  ])('%s → %j', (model, endpoints) => {
    expect(endpointsNamedBy(model)).toEqual(endpoints);
  });

  it('reads names case-insensitively', () => {
    expect(endpointsNamedBy('Text-Embedding-3-Small')).toEqual(['embeddings']);
    expect(endpointsNamedBy('DALL-E-3')).toEqual(['images']);
    expect(endpointsNamedBy('BAAI/bge-Reranker-large')).toEqual(['rerank']);
  });

  it('takes "tts" only as a word of the name, not inside another one', () => {
    expect(endpointsNamedBy('mattsmodel')).toBeNull();
    expect(endpointsNamedBy('gpt-4o-mini-ttsx')).toBeNull();
  });

  it('answers the same the second time (the answer is remembered per name, not per pattern)', () => {
    expect(endpointsNamedBy('text-embedding-3-large')).toEqual(['embeddings']);
    expect(endpointsNamedBy('text-embedding-3-large')).toEqual(['embeddings']);
    expect(endpointsNamedBy('gpt-4.1')).toBeNull();
    expect(endpointsNamedBy('gpt-4.1')).toBeNull();
  });
});
