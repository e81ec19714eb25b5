// Jest runs each spec file in a sandbox with a globalThis of its own, and Node's built-in fetch
// keeps its global dispatcher on the outer one. @google/genai looks the dispatcher up on the
// sandbox's globalThis and throws "Undici globalDispatcher is not available" without it (plain
// Node has it after the first `new Headers()`, so only tests see this). The relay's import of
// undici's index used to put one there as a side effect; the relay now imports undici's Agent
// alone (issue 30), so the specs install undici's global dispatcher themselves.
import 'undici/lib/global';
