// Service colours wherever services are drawn (the waterfall, trace lists, the service map).
// Within one view the services shown get distinct colours, up to 12 of them, in the order
// given (colorsOf); past 12, or for a lone name (serviceColor), a colour from its name.
// The palette is Kelly's colours of maximum contrast, without red (a failed span's colour).

export const PALETTE = ['#0067a5', '#f38400', '#008856', '#875692', '#c9a000', '#5fa8e8', '#e68fac', '#848482', '#8db600', '#654522', '#c2b280', '#2b3d26'];

/** @param {string} service */
export function serviceColor(service) {
  let h = 0;
  for (let i = 0; i < service.length; i++) h = (h * 31 + service.charCodeAt(i)) >>> 0;
  return PALETTE[h % PALETTE.length];
}

/**
 * A colour per service of a view: the first 12 distinct services (sorted, unless `ordered`) one palette colour each.
 * @param {string[]} services
 * @returns {(service: string) => string}
 */
export function colorsOf(services, ordered = false) {
  const unique = [...new Set(services)];
  if (!ordered) unique.sort();
  const assigned = new Map(unique.slice(0, PALETTE.length).map((s, i) => [s, PALETTE[i]]));
  return (s) => assigned.get(s) ?? serviceColor(s);
}
