/** A fixed date keeps the list identical from run to run. */
const CREATED_AT = 1_700_000_000;

/** What Azure says a model can do, guessed from its name as the simulator's models are named. */
function capabilitiesOf(id: string): Record<string, boolean> {
  const embeddings = id.includes('embedding');
  const completion = id.includes('instruct');
  const media = /dall-e|gpt-image|tts|whisper|transcribe|moderation/.test(id);
  return { chat_completion: !embeddings && !completion && !media, completion, embeddings, fine_tune: false, inference: true };
}

/**
 * `GET /openai/v1/models` and `GET /openai/models?api-version=`: the base models the resource
 * may deploy, in Azure's shape (https://learn.microsoft.com/en-us/rest/api/azureopenai/models/list) —
 * not its deployments, which Azure's data plane does not list.
 */
export function azureModelList(models: readonly string[]): Record<string, unknown> {
  return {
    object: 'list',
    data: models.map((id) => ({
      id,
      object: 'model',
      created_at: CREATED_AT,
      status: 'succeeded',
      lifecycle_status: 'generally-available',
      capabilities: capabilitiesOf(id),
      deprecation: { inference: CREATED_AT + 3 * 365 * 86_400 },
    })),
  };
}
