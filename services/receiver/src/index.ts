export { createReceiver, createHttpApp, type Receiver, type ReceiverOptions } from './app.ts';
export { INGEST_ROUTES } from './ingest-routes.ts';
