// Times between ISO 8601 (the envelope, the read API) and ClickHouse's text for
// DateTime64(3, 'UTC'), 'YYYY-MM-DD hh:mm:ss.mmm' UTC, which it parses without settings.

// What the receiver writes (toISOString): converted by slicing, without a Date round trip.
const CANONICAL_ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

let lastIso = '';
let lastCh = '';

/** ISO 8601 -> ClickHouse text. The last answer is kept: a batch's events share their received_at. */
export function toChTime(iso: string): string {
  if (iso !== lastIso) {
    lastCh = iso.length === 24 && CANONICAL_ISO.test(iso) ? `${iso.slice(0, 10)} ${iso.slice(11, 23)}` : new Date(iso).toISOString().slice(0, 23).replace('T', ' ');
    lastIso = iso;
  }
  return lastCh;
}

export function fromChTime(ch: string): string {
  return `${ch.replace(' ', 'T')}${ch.length === 19 ? '.000' : ''}Z`;
}
