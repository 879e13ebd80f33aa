export { createReceiver, type Receiver, type ReceiverOptions } from './app.ts';
export { receiverOpenApi, RECEIVER_API_DOCS } from './openapi.ts';
