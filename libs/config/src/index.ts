export { loadConfig, ConfigError, INGEST_BODY_LIMIT_DEFAULT, INGEST_RETRY_WINDOW_DEFAULT_MS, type Config } from './config.ts';
export { createLogger, REDACTED, SECRET_FIELDS, type Logger } from './logger.ts';
export { ensurePrivateDir, makeTreePrivate, PRIVATE_DIR_MODE, PRIVATE_FILE_MODE, writePrivateFile } from './private-files.ts';
export { routeProcessOutput, startService } from './process-output.ts';
export {
  callPrices,
  effectiveCostUsd,
  estimateCostUsd,
  loadLlmPrices,
  PRICE_EDITS_REFRESH_MS,
  priceOf,
  priceSchema,
  withEdits,
  type LlmPriceTable,
  type ModelPrice,
} from './llm-prices.ts';
