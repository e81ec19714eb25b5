import type { JsonSchemaObject } from '@chat-relay/contract';

export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };

const maxDepth = 8;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isJsonValue(value: unknown): value is JsonValue {
  return value === null || ['string', 'number', 'boolean', 'object'].includes(typeof value);
}

/** The schema's type; for a list like `["string", "null"]` the first that is not null. */
function schemaType(schema: Record<string, unknown>): string | undefined {
  const declared = schema['type'];
  if (typeof declared === 'string') return declared;
  if (Array.isArray(declared)) {
    const first = declared.find((entry): entry is string => typeof entry === 'string' && entry !== 'null');
    if (first) return first;
  }
  if (isRecord(schema['properties'])) return 'object';
  if (schema['items'] !== undefined) return 'array';
  return undefined;
}

/** Examples for the string formats strict structured outputs allow, so a format check passes. */
const formatExamples: Record<string, (name: string) => string> = {
  'date-time': () => '2024-01-01T00:00:00Z',
  date: () => '2024-01-01',
  time: () => '00:00:00Z',
  duration: () => 'P1D',
  email: (name) => `${name.replace(/[^a-zA-Z0-9]/g, '') || 'name'}@example.com`,
  hostname: () => 'example.com',
  ipv4: () => '192.0.2.1',
  ipv6: () => '2001:db8::1',
  uri: (name) => `https://example.com/${encodeURIComponent(name)}`,
  uuid: () => '00000000-0000-4000-8000-000000000000',
};

/** `#/$defs/Name` or `#/definitions/Name` (what pydantic and zod-to-json-schema write) in `root`. */
function resolveRef(ref: string, root: Record<string, unknown>): unknown {
  if (ref === '#') return root;
  const match = /^#\/(\$defs|definitions)\/(.+)$/.exec(ref);
  const definitions = match ? root[match[1] ?? ''] : undefined;
  return isRecord(definitions) ? definitions[decodeURIComponent(match?.[2] ?? '')] : undefined;
}

function stringFromSchema(schema: Record<string, unknown>, name: string): string {
  const format = schema['format'];
  const example = typeof format === 'string' ? formatExamples[format] : undefined;
  if (example) return example(name);
  const text = `${name} value`;
  const minLength = schema['minLength'];
  const maxLength = schema['maxLength'];
  const padded = typeof minLength === 'number' && text.length < minLength ? text.padEnd(minLength, '.') : text;
  return typeof maxLength === 'number' ? padded.slice(0, maxLength) : padded;
}

function numberFromSchema(schema: Record<string, unknown>, integer: boolean): number {
  const { minimum, exclusiveMinimum, maximum, exclusiveMaximum } = schema;
  if (typeof minimum === 'number') return integer ? Math.ceil(minimum) : minimum;
  if (typeof exclusiveMinimum === 'number') return integer ? Math.floor(exclusiveMinimum) + 1 : exclusiveMinimum + 1;
  if (typeof maximum === 'number' && maximum < 1) return integer ? Math.floor(maximum) : maximum;
  if (typeof exclusiveMaximum === 'number' && exclusiveMaximum <= 1) return Math.ceil(exclusiveMaximum) - 1;
  return 1;
}

/** Property names a shell tool takes its command line in (Claude Code's Bash, Gemini CLI's run_shell_command, Codex's exec_command and shell). */
const COMMAND_PROPERTIES: ReadonlySet<string> = new Set(['command', 'cmd']);

class ExampleBuilder {
  constructor(
    private readonly root: Record<string, unknown>,
    private readonly command?: string,
  ) {}

  object(schema: Record<string, unknown>, depth: number): { [key: string]: JsonValue } {
    const properties = schema['properties'];
    const result: { [key: string]: JsonValue } = {};
    if (!isRecord(properties) || depth > maxDepth) return result;
    // A shell call as a model makes it: the command, and only what else the tool requires
    // (Claude Code's Bash would otherwise run it in the background).
    const shell = depth === 0 && this.command !== undefined && Object.keys(properties).some((name) => COMMAND_PROPERTIES.has(name));
    const required = new Set(Array.isArray(schema['required']) ? schema['required'] : []);
    for (const [name, propertySchema] of Object.entries(properties)) {
      const command = shell && COMMAND_PROPERTIES.has(name) ? this.commandValue(propertySchema) : undefined;
      if (command !== undefined) result[name] = command;
      else if (!shell || required.has(name)) result[name] = this.value(propertySchema, name, depth + 1);
    }
    return result;
  }

  /** The user's command line where a shell tool takes it: a string as it is, an argv array as `bash -lc <line>`. */
  private commandValue(schema: unknown): JsonValue | undefined {
    const type = isRecord(schema) ? schemaType(schema) : undefined;
    if (type === 'string') return this.command ?? null;
    if (type === 'array') return ['bash', '-lc', this.command ?? ''];
    return undefined;
  }

  /** A deterministic example value for one JSON schema; `name` is the property it belongs to. */
  value(schema: unknown, name: string, depth: number): JsonValue {
    if (!isRecord(schema)) return `${name} value`;
    const ref = schema['$ref'];
    if (typeof ref === 'string' && depth <= maxDepth) return this.value(resolveRef(ref, this.root), name, depth + 1);
    const enumValues = schema['enum'];
    if (Array.isArray(enumValues) && enumValues.length > 0 && isJsonValue(enumValues[0])) return enumValues[0];
    if (schema['const'] !== undefined && isJsonValue(schema['const'])) return schema['const'];
    for (const combinator of ['anyOf', 'oneOf', 'allOf']) {
      const options = schema[combinator];
      if (Array.isArray(options) && options.length > 0) return this.value(options[0], name, depth + 1);
    }
    switch (schemaType(schema)) {
      case 'number':
        return numberFromSchema(schema, false);
      case 'integer':
        return numberFromSchema(schema, true);
      case 'boolean':
        return true;
      case 'null':
        return null;
      case 'array': {
        if (depth > maxDepth) return [];
        const minItems = schema['minItems'];
        const count = typeof minItems === 'number' && minItems > 1 ? Math.min(minItems, 10) : 1;
        return Array.from({ length: count }, () => this.value(schema['items'] ?? {}, name, depth + 1));
      }
      case 'object':
        return this.object(schema, depth);
      case 'string':
        return stringFromSchema(schema, name);
      default:
        return `${name} value`;
    }
  }
}

/**
 * Tool-call arguments built from a function's `parameters`: every property gets a value
 * (enum → first, string → "<name> value" or a sample of its `format`, number → minimum or 1,
 * boolean → true, `$ref` → its `$defs` entry, …).
 */
export function argumentsFromSchema(parameters: JsonSchemaObject | undefined, command?: string): { [key: string]: JsonValue } {
  if (parameters === undefined) return {};
  return new ExampleBuilder(parameters, command).object(parameters, 0);
}

/**
 * The JSON string OpenAI puts in `function.arguments`; `"{}"` when there are no parameters.
 * `command`: the command line the user asked for (in backticks), given to a shell tool's
 * `command`/`cmd` parameter so an agent's shell round trip runs it.
 */
export function argumentsJsonFromSchema(parameters: JsonSchemaObject | undefined, command?: string): string {
  return JSON.stringify(argumentsFromSchema(parameters, command));
}

/** The first `backticked` text of the user's message: the command line they asked a shell tool to run. */
export function commandLineOf(userText: string): string | undefined {
  return /`([^`\n]+)`/.exec(userText)?.[1];
}

/** A value valid against `schema` whatever its root type (a structured-output answer). */
export function exampleFromSchema(schema: JsonSchemaObject | undefined): JsonValue {
  if (schema === undefined) return {};
  return new ExampleBuilder(schema).value(schema, 'answer', 0);
}
