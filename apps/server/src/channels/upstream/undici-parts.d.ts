// The two parts of undici the upstream client uses, by their own files: the package's index
// loads all of undici (fetch, WebSocket, caches, mocks: 110 modules, ~3 MB of heap) at start.
// Their types are the package's own.
declare module 'undici/lib/dispatcher/agent' {
  import { Agent } from 'undici';
  export = Agent;
}

declare module 'undici/lib/core/errors' {
  import { errors } from 'undici';
  export = errors;
}
