import { html } from 'htm/preact';
import { currentZone, setZone } from '../lib/format.js';

/** UTC or the browser's zone for every time shown (remembered in this browser). */
export function ZoneSwitch() {
  const zone = currentZone();
  const button = (/** @type {'utc' | 'local'} */ z, /** @type {string} */ label) =>
    html`<button type="button" class=${zone === z ? 'seg active' : 'seg'} aria-pressed=${zone === z} onClick=${() => setZone(z)}>${label}</button>`;
  return html`<div class="segmented zone-switch" role="group" aria-label="Time zone" data-testid="zone-switch">${button('utc', 'UTC')}${button('local', 'Local')}</div>`;
}
