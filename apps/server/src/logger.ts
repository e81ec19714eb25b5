import pino from 'pino';

export type Logger = pino.Logger;

/**
 * JSON logs on stdout. Credentials are redacted wherever they might appear, as a second line
 * of defence: code never logs keys on purpose.
 */
export function createLogger(level: string): Logger {
  return pino({
    level,
    base: undefined,
    redact: {
      paths: ['*.authorization', '*.headers.authorization', '*.key', '*.keys', '*.apiKey', '*.api_key'],
      censor: '[redacted]',
    },
  });
}
