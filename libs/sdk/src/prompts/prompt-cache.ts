import { Prompt, PROMPT_READ_PATH, type PromptData, type PromptMessage } from './prompt.js';

// getPrompt's local cache (docs/sdk.md#prompts): a version fetched is served as it is for
// `cacheTtlSeconds`; after that it is still served while one background fetch refreshes it; with
// nothing cached, a failed fetch gives the `fallback` when there is one. Bounded in entries.

export interface GetPromptOptions {
  /** Fetch the version this label names (default production; latest is the newest). */
  label?: string;
  /** Or this version number. */
  version?: number;
  /** How long a fetched version is served without asking again (default 60). 0: ask on every call, serving the cached one if the fetch fails. */
  cacheTtlSeconds?: number;
  /** Used when the prompt cannot be fetched and none is cached: a text, or chat messages. */
  fallback?: string | PromptMessage[];
}

export const DEFAULT_PROMPT_TTL_SECONDS = 60;
export const MAX_CACHED_PROMPTS = 500;

export class PromptNotAvailableError extends Error {
  constructor(
    message: string,
    /** The receiver's status (404: no such prompt or label), or undefined when it could not be reached. */
    readonly status?: number,
  ) {
    super(message);
    this.name = 'PromptNotAvailableError';
  }
}

interface Entry {
  prompt: Prompt;
  fetchedAt: number;
  refreshing?: Promise<Prompt>;
}

export interface PromptSource {
  apiKey: string | undefined;
  baseUrl: string | undefined;
  fetch: typeof fetch | undefined;
  timeoutMs: number;
  now?: () => number;
}

export class PromptCache {
  private entries = new Map<string, Entry>();
  private readonly now: () => number;

  constructor(private readonly source: PromptSource) {
    this.now = source.now ?? Date.now;
  }

  async get(name: string, opts: GetPromptOptions = {}): Promise<Prompt> {
    const ref = opts.version !== undefined ? `version=${encodeURIComponent(String(opts.version))}` : `label=${encodeURIComponent(opts.label ?? 'production')}`;
    const key = `${name}?${ref}`;
    const ttlMs = Math.max(0, opts.cacheTtlSeconds ?? DEFAULT_PROMPT_TTL_SECONDS) * 1000;
    const hit = this.entries.get(key);
    if (hit) {
      if (this.now() - hit.fetchedAt < ttlMs) return hit.prompt;
      // Stale: served at once while one fetch refreshes it (its failure keeps the stale one).
      hit.refreshing ??= this.fetchInto(key, name, ref).finally(() => {
        hit.refreshing = undefined;
      });
      hit.refreshing.catch(() => {});
      if (ttlMs > 0) return hit.prompt;
      return hit.refreshing.catch(() => hit.prompt);
    }
    try {
      return await this.fetchInto(key, name, ref);
    } catch (err) {
      if (opts.fallback === undefined) throw err;
      const type = typeof opts.fallback === 'string' ? 'text' : 'chat';
      return new Prompt({ name, version: 0, type, prompt: opts.fallback, config: {}, labels: [] }, true);
    }
  }

  private async fetchInto(key: string, name: string, ref: string): Promise<Prompt> {
    const s = this.source;
    if (!s.apiKey || !s.baseUrl || !s.fetch) throw new PromptNotAvailableError('devtrail is not configured (apiKey, baseUrl)');
    const fetchFn = s.fetch; // unbound: a browser's fetch refuses another `this`
    let res: Response;
    try {
      res = await fetchFn(`${s.baseUrl.replace(/\/+$/, '')}${PROMPT_READ_PATH}/${encodeURIComponent(name)}?${ref}`, {
        headers: { authorization: `Bearer ${s.apiKey}` },
        signal: AbortSignal.timeout(s.timeoutMs),
      });
    } catch (err) {
      throw new PromptNotAvailableError(`prompt ${name}: devtrail could not be reached (${(err as Error).message})`);
    }
    if (!res.ok) {
      await res.body?.cancel().catch(() => {});
      throw new PromptNotAvailableError(`prompt ${name} (${ref}): HTTP ${res.status}`, res.status);
    }
    const prompt = new Prompt((await res.json()) as PromptData);
    this.entries.delete(key);
    this.entries.set(key, { prompt, fetchedAt: this.now() });
    if (this.entries.size > MAX_CACHED_PROMPTS) this.entries.delete(this.entries.keys().next().value as string);
    return prompt;
  }
}
