import type { AlertMessage } from './alert-message.ts';

// The bodies the two destination types receive (docs/alerts.md, "Payloads").

/** The generic webhook's JSON: the message, and the delivery id a receiver de-duplicates by. */
export function webhookBody(deliveryId: string, m: AlertMessage): string {
  return JSON.stringify({ id: deliveryId, type: m.test ? 'alert.test' : 'alert.fired', ...m });
}

const escapeSlack = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** A Slack incoming-webhook message (text for notifications, blocks for the channel). */
export function slackBody(deliveryId: string, m: AlertMessage): string {
  const title = `${m.test ? '[test] ' : ''}${m.title}`;
  const lines = [`*${escapeSlack(title)}*`, escapeSlack(m.text)];
  if (m.url) lines.push(`<${m.url}|Open in devtrail>`);
  return JSON.stringify({
    text: escapeSlack(title), // the notification's text is mrkdwn too: a title cannot ping <!channel> or make a link
    blocks: [
      { type: 'section', text: { type: 'mrkdwn', text: lines.join('\n').slice(0, 2900) } },
      { type: 'context', elements: [{ type: 'mrkdwn', text: escapeSlack(`rule ${m.rule.name} · ${m.triggered_at} · delivery ${deliveryId}`) }] },
    ],
  });
}
