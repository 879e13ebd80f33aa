// Service colours wherever services are drawn (the waterfall, trace lists, the service map,
// metric charts). A service keeps one colour on every page, chart and trace: the first time this
// browser draws it, it takes the colour its name hashes to, or, when another service of that
// view already has that one, the next free colour; the choice is remembered (localStorage), so
// `payments` never changes colour between traces. Services of one view get distinct colours
// while the palette lasts. The palette is Kelly's colours of maximum contrast, without red
// (a failed span's colour).

export const PALETTE = ['#0067a5', '#f38400', '#008856', '#875692', '#c9a000', '#5fa8e8', '#e68fac', '#848482', '#8db600', '#654522', '#c2b280', '#2b3d26'];
const STORE = 'devtrail.service-colors';
/** Services remembered at most; the oldest are forgotten first. */
const MAX_REMEMBERED = 2000;

/** @param {string} service */
function hashIndex(service) {
  // FNV-1a: nearby names (api-1, api-2) spread over the palette.
  let h = 0x811c9dc5;
  for (let i = 0; i < service.length; i++) h = Math.imul(h ^ service.charCodeAt(i), 0x01000193) >>> 0;
  return h % PALETTE.length;
}

/** @returns {Map<string, number>} */
function load() {
  try {
    const saved = JSON.parse(localStorage.getItem(STORE) || '[]');
    return new Map(
      Array.isArray(saved) ? saved.filter((e) => Array.isArray(e) && typeof e[0] === 'string' && Number.isInteger(e[1]) && e[1] >= 0 && e[1] < PALETTE.length) : [],
    );
  } catch {
    return new Map();
  }
}

const known = load();

function save() {
  while (known.size > MAX_REMEMBERED) known.delete(/** @type {string} */ (known.keys().next().value));
  try {
    localStorage.setItem(STORE, JSON.stringify([...known]));
  } catch {
    // Storage full or refused: the colours hold for this page's life.
  }
}

/** A service's colour: the one it was given, else the one its name hashes to. @param {string} service */
export function serviceColor(service) {
  return PALETTE[known.get(service) ?? hashIndex(service)];
}

/**
 * Gives the services of a view their colours (kept from then on) and answers serviceColor.
 * @param {string[]} services
 * @param {boolean} [ordered] in the order given (else sorted) when new ones take free colours
 * @returns {(service: string) => string}
 */
export function colorsOf(services, ordered = false) {
  const unique = [...new Set(services)];
  if (!ordered) unique.sort();
  const used = new Set(unique.filter((s) => known.has(s)).map((s) => known.get(s)));
  let added = false;
  for (const s of unique) {
    if (known.has(s)) continue;
    let i = hashIndex(s);
    for (let n = 0; n < PALETTE.length && used.has(i); n++) i = (i + 1) % PALETTE.length;
    known.set(s, i);
    used.add(i);
    added = true;
  }
  if (added) save();
  return serviceColor;
}
