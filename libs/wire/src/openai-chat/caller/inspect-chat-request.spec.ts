import { ChatCompletionRequestSchema } from '@chat-relay/contract';
import { convertOpenAiResponse } from '../upstream/convert-openai-response';
import { inspectChatRequest } from './inspect-chat-request';
import { OpenAiStreamTransformer } from '../upstream/openai-stream-transformer';

const request = (fields: Record<string, unknown>) =>
  ChatCompletionRequestSchema.parse({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }], ...fields });

describe('inspectChatRequest', () => {
  it('carries nothing for a plain request, a standard tier or a prediction (billed as completion tokens)', () => {
    expect(inspectChatRequest(request({ service_tier: 'auto', prediction: { type: 'content', content: 'x' } }))).toEqual({ tools: [], objects: [] });
  });

  it('web_search_options is a search run once per answer; audio asked by modalities or audio; a premium tier; files by id', () => {
    const carriage = inspectChatRequest(
      request({
        web_search_options: { search_context_size: 'low' },
        modalities: ['text', 'audio'],
        audio: { voice: 'alloy', format: 'wav' },
        service_tier: 'flex',
        messages: [{ role: 'user', content: [{ type: 'file', file: { file_id: 'file-abc' } }, { type: 'text', text: 'sum up' }] }],
      }),
    );
    expect(carriage).toEqual({
      tools: [{ kind: 'web_search', name: 'web_search_options', param: 'web_search_options', runsOncePerAnswer: true }],
      audioOutput: { param: 'modalities' },
      serviceTier: { tier: 'flex', param: 'service_tier' },
      objects: [{ kind: 'file', id: 'file-abc', param: 'messages[0].content[0].file.file_id' }],
    });
    expect(inspectChatRequest(request({ audio: { voice: 'alloy', format: 'mp3' } })).audioOutput).toEqual({ param: 'audio' });
  });
});

/** A chat.completion with an audio answer, as OpenAI's reference shows it (CompletionUsage.completion_tokens_details.audio_tokens). */
const audioCompletion = {
  id: 'chatcmpl-1',
  object: 'chat.completion',
  created: 1,
  model: 'gpt-4o-audio-preview',
  service_tier: 'default',
  choices: [{ index: 0, message: { role: 'assistant', content: null, audio: { id: 'audio_1', data: 'UklG', expires_at: 2, transcript: 'hi' } }, finish_reason: 'stop' }],
  usage: { prompt_tokens: 17, completion_tokens: 90, total_tokens: 107, completion_tokens_details: { audio_tokens: 80, reasoning_tokens: 0 } },
};

describe('what a Chat answer says beyond tokens', () => {
  it('the audio part of the completion tokens, and the tier that served it', () => {
    const converted = convertOpenAiResponse(JSON.stringify(audioCompletion), 'gpt-4o-audio-preview');
    if (!converted.ok) throw new Error('not converted');
    expect(converted.usage).toEqual({ promptTokens: 17, completionTokens: 90, audioOutputTokens: 80 });
    expect(converted.ran).toEqual({ toolCalls: {}, serviceTier: 'default', created: [] });
    const priority = convertOpenAiResponse(JSON.stringify({ ...audioCompletion, service_tier: 'priority' }), 'm');
    expect(priority.ok && priority.ran?.serviceTier).toBe('priority');
  });

  it('a stream says its tier on its chunks', () => {
    const stream = new OpenAiStreamTransformer({ publicModel: 'm', callerWantsUsage: true, secrets: [] });
    const chunk = { id: 'c', object: 'chat.completion.chunk', created: 1, model: 'm', service_tier: 'flex', choices: [{ index: 0, delta: { content: 'hi' }, finish_reason: null }] };
    stream.transform({ data: JSON.stringify(chunk) });
    expect(stream.ran?.serviceTier).toBe('flex');
  });
});
