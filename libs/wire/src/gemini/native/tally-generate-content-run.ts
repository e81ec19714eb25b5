import { isJsonObject, type JsonObject } from '../../json/json-checks';
import { addCalls, type PassthroughRun } from '../../passthrough/passthrough-carriage';

const chunksOf = (metadata: JsonObject): unknown[] => {
  const chunks = metadata['groundingChunks'];
  return Array.isArray(chunks) ? chunks : [];
};

/**
 * What a Gemini answer ran, read from each GenerateContentResponse (the whole answer, or each
 * streamed one): a candidate grounded on Google Search (`groundingMetadata` with search queries or
 * web chunks) is one grounded prompt — what Google bills — as is one grounded on Maps; each
 * `executableCode` part is a code execution; URL context counts the URLs it fetched
 * (`urlContextMetadata.urlMetadata`, the largest list seen).
 */
export class GenerateContentRunTally {
  private searched = false;
  private mapped = false;
  private codeRuns = 0;
  private fetched = 0;

  response(answer: unknown): void {
    if (!isJsonObject(answer) || !Array.isArray(answer['candidates'])) return;
    for (const candidate of answer['candidates']) {
      if (!isJsonObject(candidate)) continue;
      this.grounding(candidate['groundingMetadata']);
      const urls = isJsonObject(candidate['urlContextMetadata']) ? candidate['urlContextMetadata']['urlMetadata'] : undefined;
      if (Array.isArray(urls)) this.fetched = Math.max(this.fetched, urls.length);
      const content = candidate['content'];
      const parts = isJsonObject(content) && Array.isArray(content['parts']) ? content['parts'] : [];
      for (const part of parts) if (isJsonObject(part) && isJsonObject(part['executableCode'] ?? part['executable_code'])) this.codeRuns += 1;
    }
  }

  private grounding(metadata: unknown): void {
    if (!isJsonObject(metadata)) return;
    const queries = metadata['webSearchQueries'];
    const chunks = chunksOf(metadata);
    if ((Array.isArray(queries) && queries.length > 0) || chunks.some((chunk) => isJsonObject(chunk) && chunk['web'] !== undefined)) this.searched = true;
    if (chunks.some((chunk) => isJsonObject(chunk) && chunk['maps'] !== undefined)) this.mapped = true;
  }

  get run(): PassthroughRun {
    const toolCalls: PassthroughRun['toolCalls'] = {};
    if (this.searched) addCalls(toolCalls, 'web_search');
    if (this.mapped) addCalls(toolCalls, 'google_maps');
    addCalls(toolCalls, 'code_execution', this.codeRuns);
    addCalls(toolCalls, 'web_fetch', this.fetched);
    return { toolCalls, created: [] };
  }
}

/** What a whole answer says ran (see GenerateContentRunTally). */
export function tallyGenerateContentRun(answer: unknown): PassthroughRun {
  const tally = new GenerateContentRunTally();
  tally.response(answer);
  return tally.run;
}
