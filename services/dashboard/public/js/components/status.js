import { html } from 'htm/preact';

export const Loading = ({ what = 'Loading' }) => html`<div class="status-line muted" role="status">${what}…</div>`;

export const ErrorBox = ({ error }) => html`<div class="error-box" role="alert">${error?.message ? error.message : String(error)}</div>`;

export const Empty = ({ children }) => html`<div class="empty">${children}</div>`;
