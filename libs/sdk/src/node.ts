// Node entry (export condition "node"): the browser-safe API plus
// AsyncLocalStorage, so the active span and request follow awaits, and
// the process's end (crashes reported and flushed, signals flushed), and
// outgoing HTTP requests traced (traceparent and a client span).
import { installNodeAsyncContext } from './node/install-async-context.js';
import { instrumentOutgoingHttp } from './node/outgoing-http.js';
import { attachProcessHooks } from './node/process-hooks.js';
import { FileSpool } from './node/spool.js';
import type { DevtrailClient } from './client.js';
import { setRuntimeHooks } from './runtime-hooks.js';

installNodeAsyncContext();
setRuntimeHooks({
  attach(c) {
    const client = c as DevtrailClient;
    if (client.options.traceOutgoing) instrumentOutgoingHttp();
    return attachProcessHooks(client);
  },
  spool: (dir, maxBytes) => new FileSpool(dir, maxBytes),
});

export * from './index.js';
