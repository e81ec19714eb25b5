import path from 'node:path';
import { z } from 'zod';
import { loadSecretKey, SECRET_KEY_FILE, SecretKeySourceError } from '../security/secret-key-source';
import type { SecretKeyring } from '../security/secret-keyring';
import { copySqliteToPostgres, CopyRefusedError, type CopyResult } from '../storage/copy/copy-sqlite-to-postgres';

export const USAGE = `usage: node dist/apps/server/copy-to-postgres.js --from <relay.db> --to <postgres://…> [--schema <name>] [--secret-key-file <file>]

Copies a stopped relay's SQLite database into PostgreSQL, for running several instances
(docs/SCALING.md). The target schema is created and migrated, must hold no relay data, and gets
every table with its ids in one transaction: all of it, or nothing.

  --from <file>     the relay's SQLite database, e.g. ./data/relay.db (opened read-only)
  --to <url>        postgres://user:password@host:5432/database
  --schema <name>   the schema to copy into (DATABASE_SCHEMA of the instances); default public
  --secret-key-file <file>
                    the secret the relay sealed channel keys with; default RELAY_SECRET_KEY when
                    set, else secret.key beside the database. Every key must open with it, and
                    the instances are started with the same one (RELAY_SECRET_KEY).

Exit codes: 0 copied, 1 the copy failed or was refused (nothing copied), 2 bad usage.`;

const ArgsSchema = z
  .object({
    from: z.string({ required_error: '--from <file> is required' }).trim().min(1, '--from needs a file'),
    // The message never repeats the value: a URL holds a password.
    to: z
      .string({ required_error: '--to <postgres url> is required' })
      .trim()
      .refine((value) => /^postgres(ql)?:\/\/./.test(value), '--to must be a PostgreSQL URL such as postgres://relay:secret@db.internal:5432/relay'),
    schema: z
      .string()
      .trim()
      .default('public')
      .refine((value) => /^[a-z_][a-z0-9_]{0,62}$/.test(value), '--schema must be a plain lower-case schema name such as public or relay'),
    'secret-key-file': z.string().trim().min(1, '--secret-key-file needs a file').optional(),
  })
  .strict();
export type CopyArgs = z.infer<typeof ArgsSchema>;

export type ParsedArgs = { kind: 'help' } | { kind: 'copy'; args: CopyArgs } | { kind: 'invalid'; message: string };

const OPTIONS = new Set(['from', 'to', 'schema', 'secret-key-file']);

/** `--name value` or `--name=value`, each option once; `--help` alone. Values are checked by ArgsSchema. */
export function parseCopyArgs(argv: readonly string[]): ParsedArgs {
  if (argv.includes('--help') || argv.includes('-h')) return { kind: 'help' };
  const given: Record<string, string> = {};
  for (let i = 0; i < argv.length; i++) {
    const word = argv[i] ?? '';
    const match = /^--([a-z]+(?:-[a-z]+)*)(?:=(.*))?$/s.exec(word);
    const name = match?.[1];
    if (!match || name === undefined) return { kind: 'invalid', message: `unexpected argument ${JSON.stringify(word.slice(0, 60))}` };
    if (!OPTIONS.has(name)) return { kind: 'invalid', message: `unknown option --${name}` };
    if (name in given) return { kind: 'invalid', message: `--${name} given twice` };
    let value = match[2];
    if (value === undefined) {
      const next = argv[i + 1];
      if (next === undefined || next.startsWith('--')) return { kind: 'invalid', message: `--${name} needs a value` };
      value = next;
      i += 1;
    }
    given[name] = value;
  }
  const parsed = ArgsSchema.safeParse(given);
  if (!parsed.success) return { kind: 'invalid', message: parsed.error.issues.map((issue) => issue.message).join('; ') };
  return { kind: 'copy', args: parsed.data };
}

/** The URL as it may be printed: its password replaced by `***`. */
export function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return '(the --to URL)';
  }
}

/** `text` with the URL's password (as written and as decoded) replaced by `***`, wherever an error repeats it. */
function scrub(text: string, url: string): string {
  let password = '';
  try {
    password = new URL(url).password;
  } catch {
    return text.split(url).join('(the --to URL)');
  }
  if (!password) return text;
  let decoded = password;
  try {
    decoded = decodeURIComponent(password);
  } catch {
    // Not percent-encoding after all: the raw form is all there is.
  }
  return [password, decoded].reduce((scrubbed, secret) => scrubbed.split(secret).join('***'), text);
}

function summary(result: CopyResult, args: CopyArgs, secretFrom: string): string {
  const width = Math.max(...result.tables.map(({ table }) => table.length));
  const lines = [`copied ${args.from} into ${redactUrl(args.to)}, schema ${args.schema}:`];
  for (const { table, rows } of result.tables) lines.push(`  ${table.padEnd(width)}  ${rows.toLocaleString('en-US').padStart(12)} rows`);
  if (result.notes.length > 0) {
    lines.push('not copied exactly:');
    for (const note of result.notes) lines.push(`  ${note}`);
  }
  lines.push(`Start the instances with DATABASE_URL${args.schema === 'public' ? '' : ` and DATABASE_SCHEMA=${args.schema}`}.`);
  lines.push(`Give every instance the secret the channel keys are sealed with (${secretFrom}) as RELAY_SECRET_KEY.`);
  return `${lines.join('\n')}\n`;
}

export interface CliOutput {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
}

/**
 * The relay's secret: --secret-key-file, else RELAY_SECRET_KEY, else `secret.key` beside the
 * database (as the relay keeps it); RELAY_SECRET_KEY_PREVIOUS opens what a rotation left.
 */
function secretOf(args: CopyArgs, env: NodeJS.ProcessEnv): { from: string; load: () => SecretKeyring } {
  const fromEnv = args['secret-key-file'] === undefined ? env['RELAY_SECRET_KEY']?.trim() || undefined : undefined;
  const file = args['secret-key-file'] ?? path.join(path.dirname(path.resolve(args.from)), SECRET_KEY_FILE);
  const previousSecretKey = env['RELAY_SECRET_KEY_PREVIOUS']?.trim() || undefined;
  return {
    from: fromEnv ? 'RELAY_SECRET_KEY' : file,
    load: () => {
      try {
        return loadSecretKey({ secretKey: fromEnv, secretKeyFile: file, previousSecretKey, dataDir: path.dirname(file) }).keyring;
      } catch (error) {
        if (!(error instanceof SecretKeySourceError)) throw error;
        throw new CopyRefusedError(`${error.message} (the relay's secret: --secret-key-file, or RELAY_SECRET_KEY)`);
      }
    },
  };
}

/** The tool: parses `argv`, copies, prints what it copied; answers the exit code (0, 1 failure, 2 bad usage). */
export async function runCopyCli(argv: readonly string[], out: CliOutput, env: NodeJS.ProcessEnv = process.env): Promise<number> {
  const parsed = parseCopyArgs(argv);
  if (parsed.kind === 'help') {
    out.stdout(`${USAGE}\n`);
    return 0;
  }
  if (parsed.kind === 'invalid') {
    out.stderr(`copy-to-postgres: ${parsed.message}\n\n${USAGE}\n`);
    return 2;
  }
  const { args } = parsed;
  const secret = secretOf(args, env);
  out.stderr(`copying ${args.from} into ${redactUrl(args.to)}, schema ${args.schema}…\n`);
  try {
    const result = await copySqliteToPostgres({
      sqliteFile: args.from,
      url: args.to,
      schema: args.schema,
      secrets: secret.load,
      onProgress: ({ table, rows, done }) => {
        if (!done) out.stderr(`  ${table}: ${rows.toLocaleString('en-US')} rows…\n`);
      },
    });
    out.stdout(summary(result, args, secret.from));
    return 0;
  } catch (error) {
    const message = scrub(error instanceof Error ? error.message : String(error), args.to);
    const what = error instanceof CopyRefusedError ? 'refused' : 'failed';
    out.stderr(`copy-to-postgres: ${what}: ${message}\nNo rows were copied.\n`);
    return 1;
  }
}
