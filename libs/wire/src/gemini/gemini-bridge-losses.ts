import { lossTable } from '../hub/bridge-loss';

/** What a Gemini generateContent request loses on its way to a channel that does not speak it (docs/guides/bridge-fidelity.md). */
export const GEMINI_TO_CHAT = lossTable('Gemini generateContent → Chat Completions', {
  otherField: { kind: 'dropped', field: '*', reason: 'it has no Chat Completions counterpart' },
  safetySettings: { kind: 'dropped', field: 'safetySettings', reason: 'the channel applies its own safety rules' },
  schemaWithoutJson: { kind: 'dropped', field: 'generationConfig.responseSchema', reason: 'a response schema without responseMimeType application/json: Gemini would not apply it either' },
  generationField: { kind: 'dropped', field: 'generationConfig.*', reason: 'Chat Completions has no such setting' },
  logprobs: { kind: 'dropped', field: 'generationConfig.responseLogprobs', reason: 'log probabilities are not returned through a bridged channel (responseLogprobs and logprobs are not sent)' },
  thoughtParts: { kind: 'dropped', field: 'contents[*].parts[*].thought', reason: 'thought parts have no place in a Chat Completions request' },
  finalModelTurn: { kind: 'mapped', field: 'contents[*]', reason: 'a final model turn is sent as history: Chat Completions answers after it rather than continuing it' },
  repeatedResponse: { kind: 'dropped', field: 'contents[*].parts[*].functionResponse', reason: 'a repeat of the response the same call was given in this turn (Gemini CLI repeats them when it resumes a session)' },
  declarationField: { kind: 'dropped', field: 'tools[*].functionDeclarations[*].*', reason: 'Chat Completions functions have no such field' },
  validatedMode: { kind: 'mapped', field: 'toolConfig.functionCallingConfig.mode', reason: "VALIDATED is sent as tool_choice 'auto': Chat Completions has no schema-constrained choice" },
  toolConfigField: { kind: 'dropped', field: 'toolConfig.*', reason: 'Chat Completions has no such setting' },
  toolConfigWithoutTools: { kind: 'dropped', field: 'toolConfig', reason: 'there is no function it could apply to' },
});

/** What a Gemini embedContent / batchEmbedContents request loses in the relay's embeddings pipeline (docs/guides/bridge-fidelity.md). */
export const GEMINI_EMBED_TO_EMBEDDINGS = lossTable('Gemini embedContent → embeddings', {
  title: { kind: 'dropped', field: 'requests[*].title', reason: 'the embeddings pipeline has no document title' },
  taskType: { kind: 'dropped', field: 'taskType', reason: 'only a gemini channel takes a task type: the others embed without it' },
});
