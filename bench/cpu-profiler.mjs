// Preloaded with NODE_OPTIONS=--import (Node 20 refuses --cpu-prof there): starts the V8
// sampling profiler in this process and writes a .cpuprofile (Chrome DevTools format)
// to $BENCH_CPU_PROF_DIR when the process exits (the services call process.exit after
// a graceful stop). Inspector calls on the main thread complete synchronously.
import { Session } from 'node:inspector';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

const dir = process.env.BENCH_CPU_PROF_DIR;
const name = process.env.BENCH_CPU_PROF_NAME ?? 'process';
if (dir) {
  const session = new Session();
  session.connect();
  session.post('Profiler.setSamplingInterval', { interval: 500 });
  session.post('Profiler.enable');
  session.post('Profiler.start');
  process.on('exit', () => {
    session.post('Profiler.stop', (err, res) => {
      if (!err) writeFileSync(join(dir, `${name}-${process.pid}.cpuprofile`), JSON.stringify(res.profile));
    });
  });
}
