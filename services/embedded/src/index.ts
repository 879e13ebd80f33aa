export { startEmbedded, type Embedded } from './embedded.ts';
