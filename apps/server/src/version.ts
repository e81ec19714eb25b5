/** Replaced by the bundler with the package version; `dev` when run from source. */
declare const __RELAY_VERSION__: string | undefined;
export const RELAY_VERSION: string = typeof __RELAY_VERSION__ === 'string' ? __RELAY_VERSION__ : 'dev';
