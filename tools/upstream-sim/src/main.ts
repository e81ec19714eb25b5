import { startUpstreamSim } from './sim-server';

function readNumber(name: string, fallback: number, isValid: (value: number) => boolean): number {
  const raw = process.env[name];
  if (raw === undefined || raw.trim() === '') return fallback;
  const value = Number(raw);
  if (!isValid(value)) {
    console.error(`upstream-sim: ${name}=${JSON.stringify(raw)} is not valid`);
    process.exit(1);
  }
  return value;
}

/** `SIM_RESPONSES_API`: `on` (default), `off` or `404`, `405`. */
function readResponsesApi(): false | 404 | 405 | undefined {
  const raw = (process.env['SIM_RESPONSES_API'] ?? '').trim().toLowerCase();
  if (raw === '' || raw === 'on') return undefined;
  if (raw === 'off' || raw === '404') return 404;
  if (raw === '405') return 405;
  console.error(`upstream-sim: SIM_RESPONSES_API=${JSON.stringify(raw)} is not on, off, 404 or 405`);
  process.exit(1);
}

async function main(): Promise<void> {
  const sim = await startUpstreamSim({
    host: process.env['HOST'] || '127.0.0.1',
    port: readNumber('PORT', 4010, (port) => Number.isInteger(port) && port >= 0 && port <= 65535),
    latencyMsPerToken: readNumber('SIM_LATENCY_MS_PER_TOKEN', 0, (ms) => Number.isFinite(ms) && ms >= 0),
    speechChunkDelayMs: readNumber('SIM_SPEECH_CHUNK_DELAY_MS', 5, (ms) => Number.isFinite(ms) && ms >= 0),
    responsesApi: readResponsesApi(),
    taskDurationMs: readNumber('SIM_TASK_DURATION_MS', 2000, (ms) => Number.isFinite(ms) && ms >= 0),
  });
  console.log(
    `upstream-sim listening: OpenAI ${sim.baseUrl} (chat only: ${sim.chatOnlyBaseUrl}), ` +
      `Anthropic ${sim.anthropicBaseUrl}, Gemini ${sim.geminiBaseUrl}, Suno/Tavily/SearXNG ${sim.origin}`,
  );
  const stop = (): void => {
    sim.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

main().catch((error: unknown) => {
  console.error(`upstream-sim: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
