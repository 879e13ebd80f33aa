export { createReceiver, type Receiver, type ReceiverOptions } from './app.ts';
