/**
 * A request body recorded by pydantic-ai, without the settings pydantic-ai adds on its own and
 * an OpenAI request cannot ask for: `systemInstruction.role` (Gemini ignores it) and
 * `generationConfig.responseModalities` / `thinkingConfig`. An empty generationConfig goes too.
 */
export function withoutPydanticSettings(recorded: Record<string, unknown>): Record<string, unknown> {
  const { systemInstruction, generationConfig, ...rest } = recorded as {
    systemInstruction?: { parts: unknown[] };
    generationConfig?: Record<string, unknown>;
  };
  const out: Record<string, unknown> = { ...rest };
  if (systemInstruction) out['systemInstruction'] = { parts: systemInstruction.parts };
  const { responseModalities: _modalities, thinkingConfig: _thinking, ...config } = generationConfig ?? {};
  if (Object.keys(config).length > 0) out['generationConfig'] = config;
  return out;
}

/** OpenAI tool definitions for the functions a recorded request declared (types lower-cased back). */
export function openAiToolsFor(recorded: Record<string, unknown>) {
  const tools = recorded['tools'] as Array<{ functionDeclarations: Array<Record<string, unknown>> }>;
  return (tools[0]?.functionDeclarations ?? []).map((declaration) => ({
    type: 'function' as const,
    function: {
      name: String(declaration['name']),
      description: String(declaration['description']),
      parameters: lowerTypes(declaration['parameters'] ?? declaration['parameters_json_schema']) as Record<string, unknown>,
    },
  }));
}

function lowerTypes(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(lowerTypes);
  if (typeof schema !== 'object' || schema === null) return schema;
  return Object.fromEntries(
    Object.entries(schema).map(([key, value]) => {
      if (key === 'type' && typeof value === 'string') return [key, value.toLowerCase()];
      return [key, key === 'properties' ? mapValues(value) : lowerTypes(value)];
    }),
  );
}

function mapValues(properties: unknown): unknown {
  if (typeof properties !== 'object' || properties === null) return properties;
  return Object.fromEntries(Object.entries(properties).map(([name, value]) => [name, lowerTypes(value)]));
}
