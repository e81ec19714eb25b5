import type { HostedToolKind } from '@chat-relay/contract';
import { isJsonObject, type JsonObject } from '../../json/json-checks';
import { emptyCarriage, idOf, premiumTier, type PassthroughCarriage } from '../../passthrough/passthrough-carriage';

/** Google reads a field by its camelCase or its proto (snake_case) name. */
const fieldOf = (object: JsonObject, camel: string): unknown => object[camel] ?? object[camel.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`)];

/** The tools Google runs itself, by their field in a `tools` entry (camelCase; snake_case is read too). */
const GOOGLE_TOOLS: Readonly<Record<string, HostedToolKind>> = {
  googleSearch: 'web_search',
  googleSearchRetrieval: 'web_search',
  enterpriseWebSearch: 'web_search',
  urlContext: 'web_fetch',
  codeExecution: 'code_execution',
  googleMaps: 'google_maps',
  fileSearch: 'file_search',
};

/** Tools the caller's own client runs (the model only asks for its actions): tokens only. */
const CALLERS_OWN_TOOLS = new Set(['functionDeclarations', 'computerUse']);

const camelOf = (name: string): string => name.replace(/_([a-z])/g, (_, letter: string) => letter.toUpperCase());

function inspectTools(carriage: PassthroughCarriage, tools: unknown): void {
  if (!Array.isArray(tools)) return;
  tools.forEach((tool, index) => {
    if (!isJsonObject(tool)) return;
    for (const [field, value] of Object.entries(tool)) {
      const name = camelOf(field);
      if (CALLERS_OWN_TOOLS.has(name) || value === undefined || value === null) continue;
      const param = `tools[${index}].${field}`;
      const kind = GOOGLE_TOOLS[name];
      if (!kind) {
        (carriage.unknownTools ??= []).push({ name: field, param });
        continue;
      }
      carriage.tools.push({ kind, name: field, param });
      const stores = isJsonObject(value) ? fieldOf(value, 'fileSearchStoreNames') : undefined;
      if (Array.isArray(stores)) {
        stores.forEach((store, at) => {
          const id = idOf(store);
          if (id) carriage.objects.push({ kind: 'file_search_store', id, param: `${param}.fileSearchStoreNames[${at}]` });
        });
      }
    }
  });
}

/** A file uploaded to Google's Files API (`files/abc`, or its URL), as opposed to a public or YouTube URI. */
const isUploadedFile = (uri: string): boolean => /^files\//.test(uri) || /^https:\/\/generativelanguage\.googleapis\.com\/.*\/files\//.test(uri);

function inspectContents(carriage: PassthroughCarriage, contents: unknown): void {
  if (!Array.isArray(contents)) return;
  contents.forEach((content, index) => {
    const parts = isJsonObject(content) ? content['parts'] : undefined;
    if (!Array.isArray(parts)) return;
    parts.forEach((part, partIndex) => {
      const data = isJsonObject(part) ? fieldOf(part, 'fileData') : undefined;
      const uri = isJsonObject(data) ? idOf(fieldOf(data, 'fileUri')) : undefined;
      if (uri && isUploadedFile(uri)) carriage.objects.push({ kind: 'file', id: uri, param: `contents[${index}].parts[${partIndex}].fileData.fileUri` });
    });
  });
}

/** `responseModalities` with `AUDIO`, or a `speechConfig`: the answer is spoken. */
function asksForAudio(config: unknown): string | undefined {
  if (!isJsonObject(config)) return undefined;
  const modalities = fieldOf(config, 'responseModalities');
  if (Array.isArray(modalities) && modalities.some((modality) => typeof modality === 'string' && modality.toUpperCase() === 'AUDIO')) {
    return 'generationConfig.responseModalities';
  }
  return fieldOf(config, 'speechConfig') != null ? 'generationConfig.speechConfig' : undefined;
}

/**
 * What a generateContent request carries beyond plain tokens, for a `gemini` channel it passes
 * through to: the tools Google runs (Search, URL context, code execution, Maps, computer use, file
 * search), a spoken answer, a `serviceTier` other than the standard one, and the names of objects
 * kept at Google — a `cachedContent`, uploaded files, file search stores.
 */
export function inspectGenerateContentRequest(body: Readonly<JsonObject>): PassthroughCarriage {
  const carriage = emptyCarriage();
  inspectTools(carriage, fieldOf(body, 'tools'));
  const cache = idOf(fieldOf(body, 'cachedContent'));
  if (cache) carriage.objects.push({ kind: 'cached_content', id: cache, param: 'cachedContent' });
  inspectContents(carriage, body['contents']);
  const audio = asksForAudio(fieldOf(body, 'generationConfig'));
  if (audio) carriage.audioOutput = { param: audio };
  const tierValue = fieldOf(body, 'serviceTier');
  const tier = premiumTier(typeof tierValue === 'string' ? tierValue.replace(/^SERVICE_TIER_/i, '') : tierValue);
  if (tier) carriage.serviceTier = { tier, param: 'serviceTier' };
  return carriage;
}
