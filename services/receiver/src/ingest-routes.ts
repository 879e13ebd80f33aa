import type { FastifyInstance } from 'fastify';
import { EVENT_KINDS, kindOf } from '@devtrail/kinds';
import { authenticate, checkOrigin, rateLimit } from './auth/authenticate.ts';
import { acceptCompressedBodies, parseJsonBodies } from './body.ts';
import { boundedSafeParse } from './bounded-parse.ts';
import { produce, received, type IngestDeps } from './accept.ts';
import { registerBatchRoute } from './batch-route.ts';
import { registerDrainRoute } from './drain-route.ts';
import { registerOtlpRoutes } from './otlp-routes.ts';
import { quotaGate } from './data/quota-gate.ts';
import { registerPromptRead, type PromptReadDeps } from './prompts/prompt-read.ts';

// THE PATH OF AN INGEST REQUEST, in the order Fastify runs it (docs/architecture.md).
// Every refusal is thrown and answered by the one mapping in libs/http (http-answer.ts).
//
//   step                          Fastify hook    can answer
//   1 authenticate (the key)      onRequest       401; 503 + Retry-After when PostgreSQL is out and the key is not cached
//   2 check the browser's Origin  onRequest       403
//   3 rate limit                  onRequest       429 + Retry-After (X-RateLimit-* on every answer from here on)
//     quota already spent         onRequest       429 + Retry-After when the project's quota for the route's kind is spent (data/quota-gate.ts)
//   4 decompress                  preParsing      415 unknown Content-Encoding; 400 not valid gzip/deflate
//   5 parse JSON                  content parser  415 not JSON; 413 over the limit after decompression; 400 empty or malformed
//   6 validate and normalise      handler         400 zod issues (the column store's domain included); 400 bad Idempotency-Key;
//                                                 503 when a key's first receive time cannot be read (PostgreSQL out)
//     join error groups           handler         (a previous rule's group, a merge: group-resolver.ts; never refuses)
//     apply the data policy       handler         429 + Retry-After past a quota or the spike guard; sample, scrub (data/admit.ts)
//   7 produce, wait for acks=all  handler         503 + Retry-After when Kafka does not acknowledge by the request's
//                                                 deadline (arrival + INGEST_ACK_TIMEOUT_MS) or is failing; 413 past Kafka's message limit
//   8 answer                      handler         200 with the kind's success body
//   9 count the outcome           onResponse      accepted events per kind (at 7), refused requests per kind and reason
// Each kind's route (libs/kinds) takes every step; the drain (drain-route.ts), OTLP
// (otlp-routes.ts) and the batch route (batch-route.ts) take steps 1-5 and 9 here, and 6-8 in
// their own way into the same accept step (accept.ts). The SDK's prompt read (prompts/prompt-read.ts)
// takes steps 1-3 and answers from its cache. Consumers take the events from Kafka on (services/consumers).

/** `prompts`: where the prompt reads by ingest key are looked up and counted (prompts/prompt-read.ts). */
export async function registerIngest(app: FastifyInstance, deps: IngestDeps, prompts: PromptReadDeps): Promise<void> {
  await app.register(async (ingest) => {
    ingest.addHook('onRequest', authenticate(deps.keys)); // 1
    ingest.addHook('onRequest', checkOrigin); // 2
    ingest.addHook('onRequest', rateLimit(deps.limiter)); // 3
    ingest.addHook('onRequest', quotaGate(deps)); // 3, the project's quotas
    acceptCompressedBodies(ingest); // 4
    parseJsonBodies(ingest); // 5
    ingest.addHook('onResponse', async (request, reply) => deps.counters.onResponse(request.routeOptions.url, reply.statusCode)); // 9

    for (const kind of EVENT_KINDS) {
      const k = kindOf(kind);
      ingest.post(k.path, async (request, reply) => {
        const at = await received(deps, request, reply);
        // 6: the zod-free fast path where there is one, the kind's schema otherwise (the source of every message)
        let events = k.fastEvents?.(request.body, at.defaultsTime);
        const whole = events !== undefined; // the fast path took the body as it is: it may go as sent (as-sent.ts)
        if (!events) {
          const parsed = boundedSafeParse(k.request, request.body);
          if (!parsed.success) throw parsed.error;
          events = k.toEvents(parsed.data, at.defaultsTime);
        }
        await produce(deps, kind, request, at, events as never, whole ? request.body : undefined); // 7
        return k.respond(events); // 8
      });
    }
    registerDrainRoute(ingest, deps);
    registerOtlpRoutes(ingest, deps);
    registerBatchRoute(ingest, deps);
    // Steps 1-3 only: a read, with no body and no events.
    await registerPromptRead(ingest, prompts);
  });
}
