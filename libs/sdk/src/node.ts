// Node entry (export condition "node"): the browser-safe API plus
// AsyncLocalStorage, so the active span and request follow awaits, and
// the process's end (crashes reported and flushed, signals flushed), and
// outgoing HTTP requests traced (traceparent and a client span).
import { installNodeAsyncContext } from './node/install-async-context.js';
import { instrumentOutgoingHttp } from './node/outgoing-http.js';
import { attachProcessHooks } from './node/process-hooks.js';
import { FileSpool } from './node/spool.js';
import { consoleBreadcrumbs } from './breadcrumbs/console.js';
import type { DevtrailClient } from './client.js';
import type { Breadcrumb } from './types.js';
import { setRuntimeHooks } from './runtime-hooks.js';

installNodeAsyncContext();
setRuntimeHooks({
  attach(c) {
    const client = c as DevtrailClient;
    const crumbs = client.options.breadcrumbs;
    const add = (crumb: Breadcrumb) => client.addBreadcrumb(crumb);
    const detach = [attachProcessHooks(client)];
    if (client.options.traceOutgoing || (crumbs && crumbs.http !== false))
      detach.push(instrumentOutgoingHttp({ trace: client.options.traceOutgoing, breadcrumb: crumbs && crumbs.http !== false ? add : undefined }));
    if (crumbs && crumbs.console !== false) detach.push(consoleBreadcrumbs(add));
    return () => {
      for (const d of detach.reverse()) d();
    };
  },
  spool: (dir, maxBytes) => new FileSpool(dir, maxBytes),
});

export * from './index.js';
