import type { Content, GenerateContentRequest } from './gemini-api';
import { findSchemaSubsetViolation } from './gemini-schema-subset';

/** A rule of the Gemini API that a well-formed body can still break; the 400's message. */
export type RequestProblem = string | undefined;

const countParts = (content: Content | undefined, field: 'functionCall' | 'functionResponse'): number =>
  content?.parts.filter((part) => part[field] !== undefined).length ?? 0;

function checkDeclarations(request: GenerateContentRequest): RequestProblem {
  for (const [toolIndex, tool] of (request.tools ?? []).entries()) {
    for (const [index, declaration] of (tool.functionDeclarations ?? []).entries()) {
      const at = `tools[${toolIndex}].function_declarations[${index}]`;
      if (declaration.parameters !== undefined && declaration.parametersJsonSchema !== undefined) {
        return `${at}: parameters and parameters_json_schema must not both be set.`;
      }
      if (declaration.parameters !== undefined) {
        const problem = findSchemaSubsetViolation(declaration.parameters, `${at}.parameters`);
        if (problem) return problem;
      }
    }
  }
  return undefined;
}

function declaredNames(request: GenerateContentRequest): Set<string> {
  return new Set((request.tools ?? []).flatMap((tool) => (tool.functionDeclarations ?? []).map((declaration) => declaration.name)));
}

function checkToolConfig(request: GenerateContentRequest): RequestProblem {
  const config = request.toolConfig?.functionCallingConfig;
  const allowed = config?.allowedFunctionNames;
  if (!config || !allowed || allowed.length === 0) return undefined;
  if (config.mode !== 'ANY' && config.mode !== 'VALIDATED') {
    return 'tool_config.function_calling_config.allowed_function_names should only be set when the Mode is ANY or VALIDATED.';
  }
  const declared = declaredNames(request);
  const unknown = allowed.find((name) => !declared.has(name));
  return unknown === undefined
    ? undefined
    : `tool_config.function_calling_config.allowed_function_names: function "${unknown}" is not declared in tools.`;
}

function checkGenerationConfig(request: GenerateContentRequest): RequestProblem {
  const config = request.generationConfig;
  if (!config) return undefined;
  if (config.candidateCount !== undefined && config.candidateCount > 1) {
    return 'generation_config.candidate_count: the simulator answers one candidate; candidateCount > 1 is not simulated.';
  }
  if (config.responseSchema !== undefined) {
    if (config.responseMimeType !== 'application/json' && config.responseMimeType !== 'text/x.enum') {
      return 'generation_config.response_mime_type must be application/json or text/x.enum when response_schema is set.';
    }
    return findSchemaSubsetViolation(config.responseSchema, 'generation_config.response_schema');
  }
  return undefined;
}

/** Function responses answer the call turn right before them, one response per call. */
function checkTurns(contents: readonly Content[]): RequestProblem {
  for (const [index, content] of contents.entries()) {
    const previous = contents[index - 1];
    if (countParts(content, 'functionCall') > 0 && (index === 0 || previous?.role === 'model')) {
      return 'Please ensure that function call turn comes immediately after a user turn or after a function response turn.';
    }
    const responses = countParts(content, 'functionResponse');
    if (responses === 0) continue;
    const calls = previous?.role === 'model' ? countParts(previous, 'functionCall') : 0;
    if (calls === 0) return 'Please ensure that function response turn comes immediately after a function call turn.';
    if (calls !== responses) {
      return 'Please ensure that the number of function response parts is equal to the number of function call parts of the function call turn.';
    }
  }
  return undefined;
}

/**
 * What the real API rejects beyond the body's shape: schemas outside its subset, allowed
 * names without mode ANY, function call and response turns that do not pair up.
 */
export function checkGeminiRequest(request: GenerateContentRequest): RequestProblem {
  return (
    checkDeclarations(request) ?? checkToolConfig(request) ?? checkGenerationConfig(request) ?? checkTurns(request.contents)
  );
}
