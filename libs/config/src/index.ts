export { loadConfig, ConfigError, type Config } from './config.ts';
export { createLogger, type Logger } from './logger.ts';
export { routeProcessOutput, startService } from './process-output.ts';
export { loadLlmPrices, priceOf, estimateCostUsd, type LlmPriceTable, type ModelPrice } from './llm-prices.ts';
