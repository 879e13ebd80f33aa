// The app `npm run bench:sdk-overhead` loads (bench/sdk-overhead.ts): a trivial Express route,
// with no SDK, with @devtrail/sdk at its defaults, or with @sentry/node tracing at the same
// sample rate. CommonJS, so that Sentry's instrumentation is set up before express is required,
// as Sentry's docs ask. GET /__cpu answers this process's CPU time so far (µs); it is ignored by
// both SDKs' tracing where they allow it, and asked once per round.
const mode = process.env.BENCH_MODE;
const sink = process.env.BENCH_SINK;
const rate = Number(process.env.BENCH_TRACES_SAMPLE_RATE ?? '1');
let devtrail;
if (mode === 'devtrail') {
  const sdk = require(process.env.BENCH_SDK);
  devtrail = { sdk, client: sdk.createClient({ apiKey: 'dt_0123456789abcdef01234567', baseUrl: sink, service: 'bench-app', tracesSampleRate: rate }) };
} else if (mode === 'sentry') {
  const Sentry = require('@sentry/node');
  Sentry.init({ dsn: `${sink.replace('//', '//public@')}/1`, tracesSampleRate: rate, release: 'bench', environment: 'bench' });
  devtrail = { Sentry };
}
const express = require('express');
const app = express();
if (mode === 'devtrail') {
  const { devtrailExpress } = require(process.env.BENCH_SDK.replace(/node\.js$/, 'express.js'));
  app.use(devtrailExpress(devtrail.client, { ignorePaths: ['/__cpu'] }));
}
app.get('/__cpu', (_req, res) => {
  const u = process.cpuUsage();
  res.json({ us: u.user + u.system });
});
app.get('/hello', (_req, res) => {
  res.send('hello');
});
if (mode === 'sentry') devtrail.Sentry.setupExpressErrorHandler(app);
const server = app.listen(0, '127.0.0.1', () => {
  process.stdout.write(`${JSON.stringify({ port: server.address().port })}\n`);
});
process.on('SIGTERM', () =>
  server.close(async () => {
    await devtrail?.client?.close();
    process.exit(0);
  }),
);
