/**
 * `node dist/apps/server/copy-to-postgres.js --from ./data/relay.db --to postgres://…`: moves a
 * stopped relay from SQLite to PostgreSQL (docs/SCALING.md). What it does is in
 * storage/copy/copy-sqlite-to-postgres.ts; the options and exit codes in copy-to-postgres-cli.ts.
 */
import { runCopyCli } from './copy-to-postgres-cli';

void runCopyCli(process.argv.slice(2), {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
}).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`copy-to-postgres: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  },
);
