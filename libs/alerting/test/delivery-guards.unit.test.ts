import { describe, expect, it } from 'vitest';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { isPrivateAddress } from '../src/private-addresses.ts';
import { postJson } from '../src/safe-request.ts';
import { signatureHeader, verifySignature } from '../src/signature.ts';
import { slackBody } from '../src/format.ts';

// The guards around a user-supplied webhook URL (docs/alerts.md, "Webhook targets and SSRF"),
// and the signature a receiver verifies.
describe('webhook guards', () => {
  it('knows private, loopback, link-local and mapped addresses from public ones', () => {
    for (const a of [
      '127.0.0.1',
      '10.1.2.3',
      '172.16.0.1',
      '192.168.1.1',
      '169.254.169.254',
      '100.64.0.1',
      '::1',
      'fe80::1',
      'fd00::1',
      '::ffff:127.0.0.1',
      '::ffff:7f00:1',
      '0.0.0.0',
      // Special-purpose IPv6 ranges that reach IPv4 or local space.
      '::7f00:1', // IPv4-compatible (::/96)
      '::',
      '::ffff:0:7f00:1', // IPv4-translated (::ffff:0:0:0/96)
      '2002:7f00:1::1', // 6to4 of 127.0.0.1
      '2002:808:808::1', // 6to4, even of a public address
      '2001::1', // Teredo
      '2001:0:4136:e378:8000:63bf:3fff:fdd2',
      '64:ff9b:1::a00:1', // local-use NAT64
      '64:ff9b::7f00:1', // NAT64 of 127.0.0.1
      '64:ff9b::a9fe:a9fe', // NAT64 of 169.254.169.254
      '2001:db8::1',
      '100::1',
      '3fff::1',
      '4000::1', // outside global unicast space
      'fe80::1%eth0',
      '255.255.255.255',
      '192.88.99.1',
      'localhost',
      '',
      '1.2.3',
    ])
      expect(isPrivateAddress(a), a).toBe(true);
    for (const a of ['8.8.8.8', '1.1.1.1', '::ffff:8.8.8.8', '::ffff:808:808', '2606:4700:4700::1111', '2a00:1450:4001:82b::200e', '64:ff9b::808:808'])
      expect(isPrivateAddress(a), a).toBe(false);
  });

  it('refuses a private address unless allowed, and bounds what it reads of an answer', async () => {
    const server = createServer((_req, res) => res.end('x'.repeat(100_000)));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
    const refused = await postJson(url, '{}', {}, { timeoutMs: 2000, maxResponseBytes: 1000, allowPrivateAddresses: false });
    expect(refused.outcome).toBe('refused');
    const byName = await postJson(url.replace('127.0.0.1', 'localhost'), '{}', {}, { timeoutMs: 2000, maxResponseBytes: 1000, allowPrivateAddresses: false });
    expect(byName.outcome).toBe('refused');
    // Refused, and nothing of what the name resolved to (a member reads it).
    expect(byName.error).toBe('refused: localhost is not a public address (ALERT_WEBHOOK_PRIVATE_ADDRESSES=deny)');
    expect(refused.error).toBe('refused: 127.0.0.1 is not a public address (ALERT_WEBHOOK_PRIVATE_ADDRESSES=deny)');
    const unknown = await postJson('http://no-such-host.invalid/hook', '{}', {}, { timeoutMs: 2000, maxResponseBytes: 1000, allowPrivateAddresses: false });
    expect(unknown).toMatchObject({ outcome: 'network', error: 'no-such-host.invalid has no address' });
    const allowed = await postJson(url, '{}', {}, { timeoutMs: 2000, maxResponseBytes: 1000, allowPrivateAddresses: true });
    expect(allowed).toMatchObject({ outcome: 'ok', statusCode: 200 });
    expect(allowed.responseSnippet.length).toBeLessThanOrEqual(1000);
    server.close();
  });

  it('escapes &, < and > in every mrkdwn text of a Slack message, the top-level text included', () => {
    const hostile = 'TypeError: <!channel> & <https://evil.example|click> a > b';
    const body = JSON.parse(
      slackBody('d1', {
        rule: { id: 'r', name: '<!here>', type: 'new_group' },
        project_id: 'p',
        title: hostile,
        text: hostile,
        dedup_key: 'k',
        triggered_at: '2026-01-01T00:00:00Z',
      }),
    );
    const texts = [body.text, body.blocks[0].text.text, body.blocks[1].elements[0].text] as string[];
    for (const t of texts) {
      expect(t).not.toMatch(/[<>]/);
      expect(t.replace(/&(amp|lt|gt);/g, '')).not.toContain('&');
    }
    expect(body.text).toBe('TypeError: &lt;!channel&gt; &amp; &lt;https://evil.example|click&gt; a &gt; b');
  });

  it('signs the timestamp with the body, and a receiver refuses changes and old signatures', () => {
    const body = '{"id":"x"}';
    const h = signatureHeader('whsec_test', body, 1_700_000_000_000);
    expect(verifySignature('whsec_test', h, body, 1_700_000_000_000)).toBe(true);
    expect(verifySignature('whsec_other', h, body, 1_700_000_000_000)).toBe(false);
    expect(verifySignature('whsec_test', h, `${body} `, 1_700_000_000_000)).toBe(false);
    expect(verifySignature('whsec_test', h, body, 1_700_000_000_000 + 301_000)).toBe(false);
  });
});
