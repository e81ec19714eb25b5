// Read by config and by the CORS middleware: here so that config imports no middleware.
/** Origins allowed to call a path prefix from a browser: `'*'` = any, an empty list = none. */
export type CorsOrigins = '*' | readonly string[];

/** `RELAY_CORS_ORIGINS`-style text: `*`, a comma-separated list of origins, or empty for none. */
export function parseCorsOrigins(text: string): CorsOrigins {
  const trimmed = text.trim();
  if (trimmed === '*') return '*';
  return trimmed
    .split(',')
    .map((origin) => origin.trim().replace(/\/+$/, ''))
    .filter((origin) => origin !== '');
}
