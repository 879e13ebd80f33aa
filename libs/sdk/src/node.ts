// Node entry (export condition "node"): the browser-safe API plus
// AsyncLocalStorage, so the active span and request follow awaits, and
// the process's end: crashes reported and flushed, signals flushed.
import { installNodeAsyncContext } from './node/install-async-context.js';
import { attachProcessHooks } from './node/process-hooks.js';
import { setRuntimeHooks } from './runtime-hooks.js';

installNodeAsyncContext();
setRuntimeHooks({ attach: attachProcessHooks });

export * from './index.js';
