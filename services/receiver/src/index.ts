export { createReceiver, createHttpApp, type Receiver, type ReceiverOptions } from './app.ts';
