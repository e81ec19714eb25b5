import { createHash } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import busboy from 'busboy';
import type { RecordedMultipart } from '../sim-types';

/** One file of an upload, with its bytes (the simulator keeps uploads in memory). */
export interface FormFile {
  /** The form field it came in: `file`, `image`, `image[]`, `mask`. */
  field: string;
  filename: string;
  contentType: string;
  data: Buffer;
}

/** A `multipart/form-data` body as parsed: text fields in order (a name may repeat), and files. */
export interface ParsedForm {
  fields: [string, string][];
  files: FormFile[];
}

export type FormResult = { kind: 'form'; form: ParsedForm } | { kind: 'invalid'; message: string };

export function isMultipart(headers: IncomingHttpHeaders): boolean {
  return /^multipart\/form-data\b/i.test(headers['content-type'] ?? '');
}

/** Parses a whole multipart body with busboy (the parser the relay uses too). */
export function parseMultipart(headers: IncomingHttpHeaders, body: Buffer): Promise<FormResult> {
  return new Promise((resolve) => {
    const form: ParsedForm = { fields: [], files: [] };
    let parser: busboy.Busboy;
    try {
      // Filenames as UTF-8, which is what browsers and SDKs send.
      parser = busboy({ headers, defParamCharset: 'utf8' });
    } catch (error) {
      resolve({ kind: 'invalid', message: error instanceof Error ? error.message : String(error) });
      return;
    }
    parser.on('field', (name, value) => form.fields.push([name, value]));
    parser.on('file', (field, stream, info) => {
      const parts: Buffer[] = [];
      stream.on('data', (part: Buffer) => parts.push(part));
      stream.on('end', () => {
        form.files.push({ field, filename: info.filename ?? '', contentType: info.mimeType, data: Buffer.concat(parts) });
      });
    });
    parser.on('error', (error: unknown) => {
      resolve({ kind: 'invalid', message: error instanceof Error ? error.message : String(error) });
    });
    parser.on('close', () => resolve({ kind: 'form', form }));
    parser.end(body);
  });
}

/** What a test reads of an upload: every field, and each file's size and digest (did it arrive whole?). */
export function recordedForm(form: ParsedForm): RecordedMultipart {
  return {
    fields: form.fields.map(([name, value]) => [name, value]),
    files: form.files.map((file) => ({
      field: file.field,
      filename: file.filename,
      contentType: file.contentType,
      size: file.data.length,
      sha256: createHash('sha256').update(file.data).digest('hex'),
    })),
  };
}

/**
 * The form as one object for the contract's schemas: `name[]` and repeated names become lists,
 * files become `{filename, content_type, size}` (the relay validates uploads the same way).
 */
export function formObject(form: ParsedForm): Record<string, unknown> {
  const object: Record<string, unknown> = {};
  const add = (rawName: string, value: unknown): void => {
    const isList = rawName.endsWith('[]');
    const name = isList ? rawName.slice(0, -2) : rawName;
    const existing = object[name];
    if (Array.isArray(existing)) existing.push(value);
    else if (existing !== undefined) object[name] = [existing, value];
    else object[name] = isList ? [value] : value;
  };
  for (const [name, value] of form.fields) add(name, value);
  for (const file of form.files) add(file.field, { filename: file.filename, content_type: file.contentType, size: file.data.length });
  return object;
}

/** The files sent under `name` or `name[]`, in order. */
export function filesNamed(form: ParsedForm, name: string): FormFile[] {
  return form.files.filter((file) => file.field === name || file.field === `${name}[]`);
}

/** A form's `x_sim` field read as JSON (as a JSON body carries it); a non-JSON value stays a string. */
export function formXSim(form: ParsedForm): unknown {
  const raw = form.fields.find(([name]) => name === 'x_sim')?.[1];
  if (raw === undefined) return undefined;
  try {
    return JSON.parse(raw);
  } catch {
    return raw;
  }
}
