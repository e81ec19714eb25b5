import type { StreamTransformerOptions } from '../../hub/upstream-adapter';
import { convertGeminiUsage } from '../upstream/convert-gemini-usage';
import { GeminiPassthroughStream } from './gemini-passthrough-stream';
import { tallyGenerateContentRun } from './tally-generate-content-run';

/** A grounded answer as the Gemini API's grounding guide shows it (`groundingMetadata`). */
const grounded = {
  candidates: [
    {
      content: { role: 'model', parts: [{ text: 'Spain won Euro 2024.' }] },
      finishReason: 'STOP',
      groundingMetadata: {
        webSearchQueries: ['UEFA Euro 2024 winner', 'who won euro 2024'],
        searchEntryPoint: { renderedContent: '<!-- HTML and CSS for the search widget -->' },
        groundingChunks: [{ web: { uri: 'https://vertexaisearch.cloud.google.com/grounding-api-redirect/1', title: 'aljazeera.com' } }],
        groundingSupports: [{ segment: { startIndex: 0, endIndex: 20, text: 'Spain won Euro 2024.' }, groundingChunkIndices: [0] }],
      },
    },
  ],
  usageMetadata: { promptTokenCount: 10, candidatesTokenCount: 6, totalTokenCount: 16 },
};

describe('what a Gemini answer ran', () => {
  it('a grounded answer is one grounded prompt, however many queries it ran', () => {
    expect(tallyGenerateContentRun(grounded)).toEqual({ toolCalls: { web_search: 1 }, created: [] });
  });

  it('code runs by their executableCode parts, URL context by the URLs fetched, Maps grounding apart', () => {
    const answer = {
      candidates: [
        {
          content: { parts: [{ executableCode: { language: 'PYTHON', code: 'print(1)' } }, { codeExecutionResult: { outcome: 'OUTCOME_OK', output: '1' } }, { executable_code: { code: 'x' } }] },
          urlContextMetadata: { urlMetadata: [{ retrievedUrl: 'https://a', urlRetrievalStatus: 'URL_RETRIEVAL_STATUS_SUCCESS' }, { retrievedUrl: 'https://b' }] },
          groundingMetadata: { groundingChunks: [{ maps: { uri: 'https://maps.google.com/?cid=1', title: 'Cafe' } }] },
        },
      ],
    };
    expect(tallyGenerateContentRun(answer).toolCalls).toEqual({ google_maps: 1, code_execution: 2, web_fetch: 2 });
    expect(tallyGenerateContentRun({ candidates: [{ content: { parts: [{ text: 'plain' }] } }] }).toolCalls).toEqual({});
  });

  it('a stream counts the grounding its last response carries', () => {
    const options: StreamTransformerOptions = { publicModel: 'gemini-2.5-pro', callerWantsUsage: false, secrets: [] };
    const stream = new GeminiPassthroughStream(options);
    stream.transform({ data: JSON.stringify({ candidates: [{ content: { role: 'model', parts: [{ text: 'Spain' }] } }] }) });
    expect(stream.ran.toolCalls).toEqual({});
    stream.transform({ data: JSON.stringify(grounded) });
    expect(stream.ran.toolCalls).toEqual({ web_search: 1 });
  });

  it('usage: what Google’s tools read is prompt, a spoken answer’s tokens are told apart', () => {
    const { reported } = convertGeminiUsage({
      promptTokenCount: 100,
      toolUsePromptTokenCount: 40,
      candidatesTokenCount: 300,
      candidatesTokensDetails: [{ modality: 'AUDIO', tokenCount: 280 }, { modality: 'TEXT', tokenCount: 20 }],
      totalTokenCount: 440,
    });
    expect(reported).toEqual({ promptTokens: 140, completionTokens: 300, audioOutputTokens: 280 });
  });
});
