import fs from 'node:fs';
import path from 'node:path';
import type { ChatCompletionRequest, Tool } from '@chat-relay/contract';
import { FIXTURES_DIR } from '../../testing/fixtures';
import { bedrockConverseAdapter } from './converse-adapter';
import { readRecording } from './testing/converse-fixtures';

/** The recorded bodies are plain: one user text, inferenceConfig, toolSpecs. */
interface RecordedBody {
  messages: Array<{ role: 'user'; content: Array<{ text: string }> }>;
  inferenceConfig?: { maxTokens?: number; temperature?: number };
  toolConfig?: { tools: Array<{ toolSpec: { name: string; description?: string; inputSchema: { json: Record<string, unknown> } } }> };
}

/** The chat request a caller would send for the same conversation. */
function chatRequestFor(body: RecordedBody, stream: boolean): ChatCompletionRequest {
  const tools: Tool[] | undefined = body.toolConfig?.tools.map(({ toolSpec }) => ({
    type: 'function',
    function: { name: toolSpec.name, ...(toolSpec.description ? { description: toolSpec.description } : {}), parameters: toolSpec.inputSchema.json },
  }));
  return {
    model: 'public',
    messages: body.messages.map((message) => ({ role: 'user', content: message.content.map((block) => block.text).join('') })),
    stream,
    ...(body.inferenceConfig?.maxTokens !== undefined ? { max_tokens: body.inferenceConfig.maxTokens } : {}),
    ...(body.inferenceConfig?.temperature !== undefined ? { temperature: body.inferenceConfig.temperature } : {}),
    ...(tools ? { tools } : {}),
  };
}

const recordings = fs.readdirSync(path.join(FIXTURES_DIR, 'bedrock-converse')).map((name) => [name, readRecording(name)] as const);

describe('the requests the AWS SDK sent to Bedrock (test-fixtures/bedrock-converse) are what the adapter writes for the same chat', () => {
  it.each(recordings)('%s: same path, same body', (_name, recording) => {
    const [, model = '', operation] = /^\/model\/([^/]+)\/(converse|converse-stream)$/.exec(recording.path) ?? [];
    const built = bedrockConverseAdapter.buildRequest({
      channel: { baseUrl: 'https://bedrock-runtime.us-east-1.amazonaws.com' },
      key: 'ABSKQmVkcm9ja0FQSUtleQ==',
      request: chatRequestFor(recording.body as RecordedBody, operation === 'converse-stream'),
      upstreamModel: decodeURIComponent(model),
    });
    expect(new URL(built.url).pathname).toBe(recording.path);
    expect(JSON.parse(built.body as string)).toEqual(recording.body);
  });
});
