import type { ChatCompletionRequest } from '@chat-relay/contract';
import { bedrockConverseAdapter } from './converse-adapter';

const request = (stream: boolean): ChatCompletionRequest => ({ model: 'llama', messages: [{ role: 'user', content: 'Hi' }], stream, tools: [{ type: 'function', function: { name: 'f' } }], tool_choice: 'none' });
const channel = { baseUrl: 'https://bedrock-runtime.us-east-1.amazonaws.com/', cloud: { region: 'us-east-1' } };

describe('bedrockConverseAdapter.buildRequest', () => {
  it('Converse: the model id encoded in the path (colons of versioned ids too), JSON both ways, a Bedrock API key as bearer', () => {
    const built = bedrockConverseAdapter.buildRequest({ channel, key: 'ABSKQmVkcm9ja0FQSUtleQ==', request: request(false), upstreamModel: 'us.meta.llama3-3-70b-instruct-v1:0' });
    expect(built.url).toBe('https://bedrock-runtime.us-east-1.amazonaws.com/model/us.meta.llama3-3-70b-instruct-v1%3A0/converse');
    expect(built.headers).toEqual({ authorization: 'Bearer ABSKQmVkcm9ja0FQSUtleQ==', 'content-type': 'application/json', accept: 'application/json' });
    expect(built.framing).toBeUndefined();
    expect(JSON.parse(built.body as string)).toEqual({ messages: [{ role: 'user', content: [{ text: 'Hi' }] }] });
    expect(built.warnings).toEqual([expect.objectContaining({ field: 'tools', kind: 'dropped' })]);
  });

  it('ConverseStream: /converse-stream, AWS event-stream framing; access keys add no header (the server signs)', () => {
    const built = bedrockConverseAdapter.buildRequest({ channel, key: 'AKIAIOSFODNN7EXAMPLE:wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY', request: request(true), upstreamModel: 'amazon.nova-lite-v1:0' });
    expect(built.url).toBe('https://bedrock-runtime.us-east-1.amazonaws.com/model/amazon.nova-lite-v1%3A0/converse-stream');
    expect(built.framing).toBe('aws-eventstream');
    expect(built.headers).toEqual({ 'content-type': 'application/json', accept: 'application/vnd.amazon.eventstream' });
    expect(built.body).not.toContain('"stream"');
  });

  it('an inference-profile ARN as the model is one path segment (its colons and slash encoded)', () => {
    const arn = 'arn:aws:bedrock:us-east-1:123456789012:inference-profile/us.meta.llama3-3-70b-instruct-v1:0';
    const built = bedrockConverseAdapter.buildRequest({ channel, key: 'ABSKQmVkcm9ja0FQSUtleQ==', request: request(false), upstreamModel: arn });
    expect(built.url).toBe(
      'https://bedrock-runtime.us-east-1.amazonaws.com/model/arn%3Aaws%3Abedrock%3Aus-east-1%3A123456789012%3Ainference-profile%2Fus.meta.llama3-3-70b-instruct-v1%3A0/converse',
    );
  });

  it('an answer gets a fresh chatcmpl id and the public model', () => {
    const converted = bedrockConverseAdapter.convertResponse(JSON.stringify({ output: { message: { role: 'assistant', content: [{ text: 'Hi' }] } }, stopReason: 'end_turn', usage: { inputTokens: 1, outputTokens: 1 } }), 'my-llama');
    expect(converted).toMatchObject({ ok: true, body: { id: expect.stringMatching(/^chatcmpl-[0-9a-f]{32}$/), model: 'my-llama' } });
  });
});
