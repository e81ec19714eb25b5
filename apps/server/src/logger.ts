import pino from 'pino';

export type Logger = pino.Logger;

/**
 * JSON logs on stdout. Credentials are redacted wherever they might appear, as a second line
 * of defence: code never logs keys on purpose.
 */
export function createLogger(level: string, destination?: pino.DestinationStream): Logger {
  const options: pino.LoggerOptions = {
    level,
    base: undefined,
    redact: {
      paths: [
        '*.authorization',
        '*.headers.authorization',
        '*.headers["api-key"]',
        '*.headers["x-api-key"]',
        '*.headers["x-goog-api-key"]',
        '*.headers["x-amz-security-token"]',
        '*.key',
        '*.keys',
        '*.apiKey',
        '*.api_key',
      ],
      censor: '[redacted]',
    },
  };
  // A destination other than stdout lets tests read every line written.
  return destination ? pino(options, destination) : pino(options);
}
