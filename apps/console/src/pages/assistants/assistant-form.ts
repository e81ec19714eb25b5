import {
  AssistantCreateSchema,
  AssistantUpdateSchema,
  ResponseFormatSchema,
  type Assistant,
  type AssistantCreate,
  type AssistantUpdate,
  type AssistantVisibility,
} from '@chat-relay/contract';
import { formIssues, type FormOutcome } from '../../api/form-issues';
import { splitList } from '../channels/channel-form';
import { parseTools } from '../playground/chat-request';

export interface AssistantFormValues {
  /** Create only; empty lets the relay pick one. */
  id: string;
  name: string;
  description: string;
  instructions: string;
  /** Allowed model families, comma or line separated; empty allows any. */
  models: string;
  visibility: AssistantVisibility;
  temperature: string;
  topP: string;
  maxTokens: string;
  toolsJson: string;
  responseFormatJson: string;
}

const LABELS = {
  id: 'ID',
  name: 'Name',
  description: 'Description',
  instructions: 'Instructions',
  models: 'Models',
  visibility: 'Visibility',
  temperature: 'Temperature',
  top_p: 'Top P',
  max_tokens: 'Max tokens',
  tools: 'Tools (JSON)',
  response_format: 'Response format (JSON)',
};

export const emptyAssistantForm = (): AssistantFormValues => ({
  id: '',
  name: '',
  description: '',
  instructions: '',
  models: '',
  visibility: 'private',
  temperature: '',
  topP: '',
  maxTokens: '',
  toolsJson: '',
  responseFormatJson: '',
});

const numberText = (value: number | null): string => (value === null ? '' : String(value));

export const assistantFormFrom = (assistant: Assistant): AssistantFormValues => ({
  id: assistant.id,
  name: assistant.name,
  description: assistant.description,
  instructions: assistant.instructions,
  models: assistant.models?.join('\n') ?? '',
  visibility: assistant.visibility,
  temperature: numberText(assistant.temperature),
  topP: numberText(assistant.top_p),
  maxTokens: numberText(assistant.max_tokens),
  toolsJson: assistant.tools.length === 0 ? '' : JSON.stringify(assistant.tools, null, 2),
  responseFormatJson: assistant.response_format === null ? '' : JSON.stringify(assistant.response_format, null, 2),
});

/** Every field as the API names it (null for "not set"), or what could not be read. */
function readFields(values: AssistantFormValues): { fields: Record<string, unknown>; errors: string[] } {
  const errors: string[] = [];
  const number = (text: string, label: string): number | null => {
    if (text.trim() === '') return null;
    const value = Number(text.trim());
    if (!Number.isFinite(value)) errors.push(`${label}: must be a number`);
    return value;
  };
  const tools = parseTools(values.toolsJson);
  if ('errors' in tools) errors.push(...tools.errors);
  let responseFormat: unknown = null;
  if (values.responseFormatJson.trim() !== '') {
    try {
      const parsed = ResponseFormatSchema.safeParse(JSON.parse(values.responseFormatJson));
      if (parsed.success) responseFormat = parsed.data;
      else errors.push(...formIssues(parsed.error.issues, {}).map((issue) => `Response format (JSON): ${issue}`));
    } catch {
      errors.push('Response format (JSON): not JSON');
    }
  }
  const models = splitList(values.models);
  const fields = {
    name: values.name,
    description: values.description,
    instructions: values.instructions,
    models: models.length === 0 ? null : models,
    visibility: values.visibility,
    temperature: number(values.temperature, 'Temperature'),
    top_p: number(values.topP, 'Top P'),
    max_tokens: number(values.maxTokens, 'Max tokens'),
    tools: 'tools' in tools ? (tools.tools ?? []) : [],
    response_format: responseFormat,
  };
  return { fields, errors };
}

/** `POST /api/assistants` body, checked against the contract. */
export function toAssistantCreate(values: AssistantFormValues): FormOutcome<AssistantCreate> {
  const { fields, errors } = readFields(values);
  if (errors.length > 0) return { ok: false, errors };
  const id = values.id.trim();
  const parsed = AssistantCreateSchema.safeParse(id === '' ? fields : { ...fields, id });
  return parsed.success ? { ok: true, body: parsed.data } : { ok: false, errors: formIssues(parsed.error.issues, LABELS, 'tool') };
}

/** `PATCH /api/assistants/{id}` body: only the fields that differ from the assistant as loaded. */
export function toAssistantUpdate(values: AssistantFormValues, original: Assistant): FormOutcome<AssistantUpdate> {
  const { fields, errors } = readFields(values);
  if (errors.length > 0) return { ok: false, errors };
  const before: Record<string, unknown> = original;
  const changed = Object.fromEntries(Object.entries(fields).filter(([field, value]) => JSON.stringify(value) !== JSON.stringify(before[field])));
  if (Object.keys(changed).length === 0) return { ok: false, errors: ['Nothing changed.'] };
  const parsed = AssistantUpdateSchema.safeParse(changed);
  return parsed.success ? { ok: true, body: parsed.data } : { ok: false, errors: formIssues(parsed.error.issues, LABELS, 'tool') };
}
