import { colorsOf } from './service-colors.js';

// A model keeps one colour on every LLM chart and page, as a service does (service-colors.js
// remembers the choice); its names live apart from the services' ("model:" before them).

/**
 * Gives the models of a view their colours and answers each model's.
 * @param {string[]} models
 * @returns {(model: string) => string}
 */
export function modelColorsOf(models) {
  const colorOf = colorsOf(models.map((m) => `model:${m}`));
  return (model) => colorOf(`model:${model}`);
}
