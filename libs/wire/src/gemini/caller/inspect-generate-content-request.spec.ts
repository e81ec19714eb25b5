import { inspectGenerateContentRequest } from './inspect-generate-content-request';

/** Requests in the shapes of the Gemini API reference, camelCase and (as Google's REST examples send) snake_case. */
const request = (fields: Record<string, unknown>) => ({ contents: [{ role: 'user', parts: [{ text: 'hi' }] }], ...fields });

describe('inspectGenerateContentRequest', () => {
  it('carries nothing for function declarations, public file URIs and the standard tier', () => {
    const carriage = inspectGenerateContentRequest(
      request({
        tools: [{ functionDeclarations: [{ name: 'f' }] }, { function_declarations: [{ name: 'g' }] }],
        contents: [{ role: 'user', parts: [{ fileData: { mimeType: 'video/mp4', fileUri: 'https://www.youtube.com/watch?v=abc' } }] }],
        generationConfig: { responseModalities: ['TEXT'] },
        serviceTier: 'SERVICE_TIER_STANDARD',
      }),
    );
    expect(carriage).toEqual({ tools: [], objects: [] });
  });

  it('Google’s tools by kind, under either name; an unknown tool named', () => {
    const carriage = inspectGenerateContentRequest(
      request({ tools: [{ googleSearch: {} }, { url_context: {} }, { codeExecution: {} }, { googleMaps: { enableWidget: true } }, { google_search_retrieval: {} }, { mindReading: {} }] }),
    );
    expect(carriage.tools).toEqual([
      { kind: 'web_search', name: 'googleSearch', param: 'tools[0].googleSearch' },
      { kind: 'web_fetch', name: 'url_context', param: 'tools[1].url_context' },
      { kind: 'code_execution', name: 'codeExecution', param: 'tools[2].codeExecution' },
      { kind: 'google_maps', name: 'googleMaps', param: 'tools[3].googleMaps' },
      { kind: 'web_search', name: 'google_search_retrieval', param: 'tools[4].google_search_retrieval' },
    ]);
    expect(carriage.unknownTools).toEqual([{ name: 'mindReading', param: 'tools[5].mindReading' }]);
  });

  it('caches, uploaded files and file search stores are upstream objects; a spoken answer; a premium tier', () => {
    const carriage = inspectGenerateContentRequest(
      request({
        cached_content: 'cachedContents/abc',
        contents: [
          { role: 'user', parts: [{ file_data: { mime_type: 'application/pdf', file_uri: 'https://generativelanguage.googleapis.com/v1beta/files/f1' } }, { fileData: { fileUri: 'files/f2' } }] },
        ],
        tools: [{ fileSearch: { fileSearchStoreNames: ['fileSearchStores/s1'] } }],
        generation_config: { response_modalities: ['AUDIO'] },
        serviceTier: 'priority',
      }),
    );
    expect(carriage.objects).toEqual([
      { kind: 'file_search_store', id: 'fileSearchStores/s1', param: 'tools[0].fileSearch.fileSearchStoreNames[0]' },
      { kind: 'cached_content', id: 'cachedContents/abc', param: 'cachedContent' },
      { kind: 'file', id: 'https://generativelanguage.googleapis.com/v1beta/files/f1', param: 'contents[0].parts[0].fileData.fileUri' },
      { kind: 'file', id: 'files/f2', param: 'contents[0].parts[1].fileData.fileUri' },
    ]);
    expect(carriage.audioOutput).toEqual({ param: 'generationConfig.responseModalities' });
    expect(carriage.serviceTier).toEqual({ tier: 'priority', param: 'serviceTier' });
    expect(inspectGenerateContentRequest(request({ generationConfig: { speechConfig: { voiceConfig: {} } } })).audioOutput).toEqual({ param: 'generationConfig.speechConfig' });
  });
});
