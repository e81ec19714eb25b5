// `npm run demo`: the relay in front of the upstream simulator, seeded with a channel and a
// token, answering one tool-calling request, then left running with a curl line to paste.
// Ports: PORT (relay, default 3000) and SIM_PORT (simulator, default 4010). Ctrl-C stops both.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const relayPort = Number(process.env.PORT ?? 3000);
const simPort = Number(process.env.SIM_PORT ?? 4010);
const relayUrl = `http://127.0.0.1:${relayPort}`;
const adminKey = `demo-admin-${randomBytes(12).toString('hex')}`;
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'chat-relay-demo-'));
const children = [];

function start(name, script, env) {
  const child = spawn(process.execPath, [path.join(root, script)], {
    // The demo keeps its own SQLite file and limits even where the shell points at shared stores.
    env: { ...process.env, DATABASE_URL: '', REDIS_URL: '', ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  child.stdout.on('data', (data) => process.env.DEMO_VERBOSE && process.stdout.write(`[${name}] ${data}`));
  child.on('exit', (code) => {
    if (!stopping) {
      console.error(`${name} exited (${code}); stopping the demo`);
      stop(1);
    }
  });
  children.push(child);
  return child;
}

let stopping = false;
function stop(code = 0) {
  stopping = true;
  for (const child of children) child.kill('SIGTERM');
  setTimeout(() => {
    rmSync(dataDir, { recursive: true, force: true });
    process.exit(code);
  }, 300);
}
process.on('SIGINT', () => stop(0));
process.on('SIGTERM', () => stop(0));

async function waitFor(url) {
  for (let i = 0; i < 100; i++) {
    try {
      await fetch(url);
      return;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  throw new Error(`${url} did not answer`);
}

async function api(method, route, body) {
  const response = await fetch(`${relayUrl}${route}`, {
    method,
    headers: { authorization: `Bearer ${adminKey}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const json = await response.json();
  if (!response.ok) throw new Error(`${method} ${route}: ${response.status} ${JSON.stringify(json)}`);
  return json;
}

start('upstream-sim', 'dist/tools/upstream-sim/main.js', { PORT: String(simPort), HOST: '127.0.0.1' });
start('relay', 'dist/apps/server/main.js', {
  PORT: String(relayPort),
  HOST: '127.0.0.1',
  RELAY_DATA_DIR: dataDir,
  RELAY_ADMIN_KEY: adminKey,
  RELAY_LOG_LEVEL: process.env.RELAY_LOG_LEVEL ?? 'warn',
  // glibc's malloc as `npm start` sets it (package.json; README, "Memory").
  GLIBC_TUNABLES: process.env.GLIBC_TUNABLES || 'glibc.malloc.mmap_threshold=131072',
});

try {
  await waitFor(`http://127.0.0.1:${simPort}/v1/models`);
  await waitFor(`${relayUrl}/healthz`);
  await api('POST', '/api/channels', {
    name: 'simulator',
    type: 'openai',
    base_url: `http://127.0.0.1:${simPort}/v1`,
    keys: ['sk-simulator'],
    models: ['gpt-4o', 'gpt-4o-mini'],
  });
  // The simulator speaks Anthropic's Messages API on the same port (/v1/messages).
  await api('POST', '/api/channels', {
    name: 'simulator-anthropic',
    type: 'anthropic',
    base_url: `http://127.0.0.1:${simPort}/v1`,
    keys: ['sk-simulator'],
    models: ['claude-sonnet-4-5'],
  });
  // The simulator answers OpenAI's other endpoints too: embeddings, images, speech, transcriptions…
  await api('POST', '/api/channels', {
    name: 'simulator-media',
    type: 'openai',
    base_url: `http://127.0.0.1:${simPort}/v1`,
    keys: ['sk-simulator'],
    models: ['text-embedding-3-*', 'omni-moderation-latest', 'dall-e-3', 'gpt-image-1', 'tts-1', 'whisper-1', 'gpt-3.5-turbo-instruct'],
  });
  const token = await api('POST', '/api/tokens', { name: 'demo' });
  await api('POST', '/api/assistants', {
    id: 'g-pirate1',
    name: 'Pirate',
    instructions: 'Answer like a pirate.',
    models: ['gpt-4o', 'gpt-4o-mini', 'claude-sonnet-4-5'],
    visibility: 'public',
  });
  const request = {
    model: 'gpt-4o',
    messages: [{ role: 'user', content: 'What is the weather in Paris?' }],
    tools: [
      {
        type: 'function',
        function: {
          name: 'get_weather',
          description: 'Current weather for a city',
          parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
        },
      },
    ],
  };
  const answer = await fetch(`${relayUrl}/v1/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token.key}`, 'content-type': 'application/json' },
    body: JSON.stringify(request),
  }).then((response) => response.json());
  const call = answer.choices?.[0]?.message?.tool_calls?.[0];
  console.log(`\nchat-relay demo: relay ${relayUrl}, simulator http://127.0.0.1:${simPort}/v1`);
  console.log(`admin key: ${adminKey}   API token: ${token.key}`);
  console.log(`first answer: finish_reason=${answer.choices?.[0]?.finish_reason}, tool call ${call?.function?.name}(${call?.function?.arguments})\n`);
  console.log('Try it (add "stream": true to stream):\n');
  console.log(
    `curl ${relayUrl}/v1/chat/completions -H "Authorization: Bearer ${token.key}" -H "Content-Type: application/json" -d '${JSON.stringify(request)}'\n`,
  );
  const gizmo = { model: 'gpt-4o-gizmo-g-pirate1', messages: [{ role: 'user', content: 'Where is the gold?' }] };
  console.log('The seeded custom assistant g-pirate1, through the same channel:\n');
  console.log(
    `curl ${relayUrl}/v1/chat/completions -H "Authorization: Bearer ${token.key}" -H "Content-Type: application/json" -d '${JSON.stringify(gizmo)}'\n`,
  );
  const message = { model: 'claude-sonnet-4-5', max_tokens: 256, messages: [{ role: 'user', content: 'Say hello.' }] };
  console.log("Anthropic's Messages API (what Claude Code and the Anthropic SDKs speak), passed through to the Anthropic channel;");
  console.log('use "model": "gpt-4o" to have the same request bridged to the OpenAI-compatible channel:\n');
  console.log(
    `curl ${relayUrl}/v1/messages -H "x-api-key: ${token.key}" -H "anthropic-version: 2023-06-01" -H "Content-Type: application/json" -d '${JSON.stringify(message)}'\n`,
  );
  console.log(`Claude Code: ANTHROPIC_BASE_URL=${relayUrl} ANTHROPIC_AUTH_TOKEN=${token.key} claude --model claude-sonnet-4-5\n`);
  const response = { model: 'gpt-4o', instructions: 'Answer briefly.', input: 'What is a relay?' };
  console.log("OpenAI's Responses API (the AI SDK's, Agents SDK's and Codex's default), passed through to the simulator's own");
  console.log('/v1/responses; use "model": "claude-sonnet-4-5" to have it bridged, then "previous_response_id" to continue it:\n');
  console.log(
    `curl ${relayUrl}/v1/responses -H "Authorization: Bearer ${token.key}" -H "Content-Type: application/json" -d '${JSON.stringify(response)}'\n`,
  );
  console.log('Embeddings (and /v1/completions, /v1/moderations, /v1/images/generations, /v1/audio/speech, /v1/audio/transcriptions the same way):\n');
  console.log(
    `curl ${relayUrl}/v1/embeddings -H "Authorization: Bearer ${token.key}" -H "Content-Type: application/json" -d '${JSON.stringify({ model: 'text-embedding-3-small', input: ['a relay', 'a gateway'], dimensions: 8 })}'\n`,
  );
  console.log('Ctrl-C stops the demo.');
} catch (error) {
  console.error(`demo failed: ${error.message}`);
  stop(1);
}
