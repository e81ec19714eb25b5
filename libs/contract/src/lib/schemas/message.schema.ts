import { z } from 'zod';
import { LegacyFunctionCallSchema, ToolCallSchema } from './tool.schema';

export const TextPartSchema = z.object({ type: z.literal('text'), text: z.string() }).passthrough();
export const ImagePartSchema = z
  .object({
    type: z.literal('image_url'),
    image_url: z
      .object({ url: z.string().min(1), detail: z.enum(['auto', 'low', 'high']).optional() })
      .passthrough(),
  })
  .passthrough();
export const AudioPartSchema = z
  .object({
    type: z.literal('input_audio'),
    input_audio: z.object({ data: z.string(), format: z.string() }).passthrough(),
  })
  .passthrough();
export const FilePartSchema = z
  .object({
    type: z.literal('file'),
    file: z
      .object({ file_data: z.string().optional(), file_id: z.string().optional(), filename: z.string().optional() })
      .passthrough(),
  })
  .passthrough();
export const RefusalPartSchema = z.object({ type: z.literal('refusal'), refusal: z.string() }).passthrough();

export const UserContentPartSchema = z.discriminatedUnion('type', [
  TextPartSchema,
  ImagePartSchema,
  AudioPartSchema,
  FilePartSchema,
]);
export type UserContentPart = z.infer<typeof UserContentPartSchema>;
export const AssistantContentPartSchema = z.discriminatedUnion('type', [TextPartSchema, RefusalPartSchema]);

const textContent = z.union([z.string(), z.array(TextPartSchema)]);

export const SystemMessageSchema = z
  .object({ role: z.literal('system'), content: textContent, name: z.string().optional() })
  .passthrough();
export const DeveloperMessageSchema = z
  .object({ role: z.literal('developer'), content: textContent, name: z.string().optional() })
  .passthrough();
export const UserMessageSchema = z
  .object({
    role: z.literal('user'),
    content: z.union([z.string(), z.array(UserContentPartSchema)]),
    name: z.string().optional(),
  })
  .passthrough();
export const AssistantMessageSchema = z
  .object({
    role: z.literal('assistant'),
    content: z.union([z.string(), z.array(AssistantContentPartSchema)]).nullable().optional(),
    refusal: z.string().nullable().optional(),
    name: z.string().optional(),
    tool_calls: z.array(ToolCallSchema).optional(),
    function_call: LegacyFunctionCallSchema.nullable().optional(),
  })
  .passthrough();
export const ToolMessageSchema = z
  .object({ role: z.literal('tool'), content: textContent, tool_call_id: z.string().min(1) })
  .passthrough();
/** Legacy result of a `function_call`. */
export const FunctionMessageSchema = z
  .object({ role: z.literal('function'), content: z.string().nullable(), name: z.string().min(1) })
  .passthrough();

export const MessageSchema = z.discriminatedUnion('role', [
  SystemMessageSchema,
  DeveloperMessageSchema,
  UserMessageSchema,
  AssistantMessageSchema,
  ToolMessageSchema,
  FunctionMessageSchema,
]);
export type Message = z.infer<typeof MessageSchema>;
export type AssistantMessage = z.infer<typeof AssistantMessageSchema>;
export type ToolMessage = z.infer<typeof ToolMessageSchema>;
