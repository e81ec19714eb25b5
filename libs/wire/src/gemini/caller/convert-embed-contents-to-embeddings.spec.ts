import { lost } from '../../testing/lost';
import type { GeminiEmbedContentRequest } from '@chat-relay/contract';
import { RelayError } from '../../errors/relay-error';
import { convertEmbedContentsToEmbeddings, convertEmbeddingsToGemini } from './convert-embed-contents-to-embeddings';

const text = (value: string, extra: Partial<GeminiEmbedContentRequest> = {}): GeminiEmbedContentRequest => ({ content: { parts: [{ text: value }] }, ...extra });

function refusal(call: () => unknown): RelayError {
  try {
    call();
  } catch (error) {
    if (error instanceof RelayError) return error;
    throw error;
  }
  throw new Error('not refused');
}

describe('convertEmbedContentsToEmbeddings', () => {
  it('makes one input per content, in order, a content’s text parts joined by new lines, floats asked for', () => {
    const requests = [text('one'), { content: { parts: [{ text: 'two' }, { text: 'three' }] } }];
    expect(convertEmbedContentsToEmbeddings({ model: 'm', requests, batch: false })).toEqual({
      request: { model: 'm', input: ['one', 'two\nthree'], encoding_format: 'float' },
      warnings: [],
    });
  });

  it('sends outputDimensionality as dimensions and taskType as task_type, and names title as not sent', () => {
    const converted = convertEmbedContentsToEmbeddings({
      model: 'm',
      requests: [
        text('a', { model: 'models/m', outputDimensionality: 64, taskType: 'RETRIEVAL_DOCUMENT', title: 'Doc' }),
        text('b', { model: 'models/m', outputDimensionality: 64, taskType: 'RETRIEVAL_DOCUMENT' }),
      ],
      batch: true,
    });
    expect(converted.request).toEqual({ model: 'm', input: ['a', 'b'], encoding_format: 'float', dimensions: 64, task_type: 'RETRIEVAL_DOCUMENT' });
    expect(converted.warnings).toEqual([lost(/^requests?(\[\d+\])?\.title$/)]);
  });

  it('refuses, naming the field: a batch request of another model or none, differing dimensions, a part that is not text', () => {
    expect(refusal(() => convertEmbedContentsToEmbeddings({ model: 'm', requests: [text('a', { model: 'models/other' })], batch: true })).param).toBe('requests[0].model');
    expect(refusal(() => convertEmbedContentsToEmbeddings({ model: 'm', requests: [text('a')], batch: true })).message).toContain('names no model');
    const dimensions = [text('a', { model: 'models/m', outputDimensionality: 8 }), text('b', { model: 'models/m', outputDimensionality: 16 })];
    expect(refusal(() => convertEmbedContentsToEmbeddings({ model: 'm', requests: dimensions, batch: true })).param).toBe('requests');
    const tasks = [text('a', { model: 'models/m', taskType: 'RETRIEVAL_QUERY' }), text('b', { model: 'models/m' })];
    expect(refusal(() => convertEmbedContentsToEmbeddings({ model: 'm', requests: tasks, batch: true })).message).toContain('taskType');
    const image = { content: { parts: [{ inlineData: { mimeType: 'image/png', data: 'AA==' } }] } };
    expect(refusal(() => convertEmbedContentsToEmbeddings({ model: 'm', requests: [image], batch: false })).param).toBe('request.content.parts[0]');
  });
});

describe('convertEmbeddingsToGemini', () => {
  it('answers the vectors in the inputs’ order, base64 ones decoded', () => {
    const floats = Buffer.from(new Float32Array([0.5, -1]).buffer).toString('base64');
    expect(convertEmbeddingsToGemini({ data: [{ object: 'embedding', index: 1, embedding: floats }, { object: 'embedding', index: 0, embedding: [1, 2] }] })).toEqual([{ values: [1, 2] }, { values: [0.5, -1] }]);
  });
});
