import { describe, expect, it } from 'vitest';
import {
  earlierFingerprints,
  earlierList,
  errorReportSchema,
  errorToEvent,
  fingerprint,
  fingerprintParts,
  fingerprintV2,
  groupType,
  previousFingerprint,
  stripMessage,
} from '@devtrail/kinds';

// The cross-platform normalisations, each with docs/fingerprint.md's example ("Without a
// usable stack", "Browsers' words", "One failure, two types"), and the upgrade from rule v2
// ("Upgrading"): what the grouping corpus holds statistically, here case by case.

const same = (a: string, b: string) => expect(stripMessage(a)).toBe(stripMessage(b));

describe('messages from other machines', () => {
  it('paths: a Unix home and a Windows profile, with spaces and either slash, are one path', () => {
    expect(stripMessage('Config file not found: /home/ana/shop/config.json')).toBe('Config file not found: <path>');
    same('open /home/ana/shop/config.yaml: no such file', 'open C:\\Users\\Ana Maria\\shop\\config.yaml: no such file');
    same('open /Users/ana/x.yaml: no such file', 'open C:/Users/ana/x.yaml: no such file');
    same('rb_sysopen - /home/deploy/app/tmp/report.csv', 'rb_sysopen - D:\\work\\deploy\\app\\tmp\\report.csv');
    expect(stripMessage('copy to \\\\files\\share\\x.csv failed')).toBe('copy to <path> failed');
  });

  it('addresses: IPv4 and IPv6 (loopback, bracketed, IPv4-mapped, all eight groups) with their ports are one address', () => {
    for (const a of ['::1:5432', '[::1]:5432', '::ffff:10.0.0.5:5432', '0:0:0:0:0:0:0:1:5432', '[fd00::7]:5432', '10.0.0.5:5432'])
      expect(stripMessage(`Failed to connect to ${a}`)).toBe('Failed to connect to <ip>');
    expect(stripMessage('listen EADDRINUSE: address already in use :::3000')).toBe('listen EADDRINUSE: address already in use <ip>');
    // Ruby's and C++'s names are not addresses, nor are times
    expect(stripMessage('Net::ReadTimeout in Cafe::Add at 10:00:00')).toBe('Net::ReadTimeout in Cafe::Add at <time>');
  });

  it('ids and values: short hex ids, quoted values with escaped quotes, URLs without their scheme', () => {
    same('Session a3f9c2 not found', 'Session 709959 not found');
    expect(stripMessage('Session 7f3a1b not found')).toBe('Session <n> not found');
    same('Cannot deserialize value "say \\"hi\\"" for field quantity', 'Cannot deserialize value "abc" for field quantity');
    expect(stripMessage('Script cdn.shop.example.com/assets/index-DiwrgTda.js#x failed to load')).toBe('Script <url> failed to load');
    // a dotted name in a path is the path's
    expect(stripMessage('open /home/li.wei/x.csv: denied')).toBe('open <path>: denied');
  });
});

describe("browsers' words", () => {
  it('reading a property of undefined: Chrome, older Chrome, Edge, Firefox, Safari', () => {
    const words = [
      "Cannot read properties of undefined (reading 'items')",
      "Cannot read property 'items' of undefined",
      "Unable to get property 'items' of undefined or null reference",
      'can\'t access property "items", e is undefined',
      "undefined is not an object (evaluating 'cart.items')",
    ];
    for (const w of words) expect(stripMessage(w)).toBe('cannot read property items of nothing');
    expect(stripMessage("Cannot read properties of undefined (reading 'total')")).not.toBe(stripMessage(words[0]));
  });

  it('a failed fetch, an aborted one, a chunk that did not load (any id, reason, URL), a dynamic import', () => {
    for (const w of ['Failed to fetch', 'Failed to fetch (api.shop.example.com)', 'NetworkError when attempting to fetch resource.', 'Load failed'])
      expect(stripMessage(w)).toBe('network request failed');
    for (const w of ['signal is aborted without reason', 'The operation was aborted. ', 'Fetch is aborted']) expect(stripMessage(w)).toBe('request aborted');
    for (const w of [
      'Loading chunk 938 failed.\n(error: https://shop.example.com/_next/static/chunks/938-8a7b6c5d.js)',
      'Loading chunk app-product-page failed.\n(missing: https://cdn.example.net/app-product-page.js)',
      'Failed to fetch dynamically imported module: https://shop.example.com/assets/Cart-BkX9a1_2.js',
      'error loading dynamically imported module: https://shop.example.com/assets/Cart-DiwrgTda.js',
      'Importing a module script failed.',
    ])
      expect(stripMessage(w)).toBe('chunk failed to load');
    expect(stripMessage('Loading CSS chunk 12 failed.\n(https://h/12.css)')).toBe('css chunk failed to load');
    expect(stripMessage("Failed to execute 'fetch' on 'Window': Invalid name")).not.toBe('network request failed');
  });
});

describe('one failure, two types', () => {
  it('a system error code and the class that carries it; a library class and its code; a subclass and its base', () => {
    expect(groupType('Error', 'connect ECONNREFUSED 10.0.0.5:5432')).toBe('ECONNREFUSED');
    expect(groupType('ECONNREFUSED', 'connect ECONNREFUSED 10.0.0.5:5432')).toBe('ECONNREFUSED');
    expect(groupType('Errno::ECONNREFUSED', '')).toBe('ECONNREFUSED');
    expect(groupType('ConnectionRefusedError', '[Errno 111] Connection refused')).toBe('ECONNREFUSED');
    expect(groupType('OSError', '[Errno 111] Connection refused')).toBe('ECONNREFUSED');
    expect(groupType('OSError', '[WinError 10061] No connection could be made')).toBe('ECONNREFUSED');
    expect(groupType('Error', 'connect ETIMEDOUT 10.0.0.5:5432')).toBe('ETIMEDOUT');
    for (const t of ['StripeCardError', 'card_declined', 'stripe._error.CardError', 'Stripe::CardError', 'com.stripe.exception.CardException'])
      expect(groupType(t, '')).toBe('StripeCardError');
    expect(groupType('rate_limit', '')).toBe('StripeRateLimitError');
    expect(groupType('System.Threading.Tasks.TaskCanceledException', '')).toBe('OperationCanceledException');
    expect(groupType('org.postgresql.util.PSQLException', '')).toBe('SQLException');
    expect(groupType('*fmt.wrapError', '')).toBe(groupType('*errors.errorString', ''));
    // what the tables do not name keeps its last name; a generic class without a code stays itself
    expect(groupType('java.lang.IllegalStateException', '')).toBe('IllegalStateException');
    expect(groupType('Error', 'boom')).toBe('Error');
    expect(groupType('constructor', '')).toBe('constructor');
  });

  it('so one call site typed by class or by code is one group, and another code there is another', () => {
    const stack = 'Error: connect ECONNREFUSED 10.0.0.5:5432\n    at async loadCart (/app/dist/cart/load.js:21:9)';
    const sdk = fingerprint({ error_message: 'connect ECONNREFUSED 10.0.0.5:5432', stack_trace: stack, context: { error_type: 'Error' } });
    expect(fingerprint({ error_message: 'connect ECONNREFUSED 10.0.0.5:5432', stack_trace: stack, context: { 'exception.type': 'ECONNREFUSED' } })).toBe(sdk);
    expect(
      fingerprint({ error_message: 'connect ETIMEDOUT 10.0.0.5:5432', stack_trace: stack.replace('ECONNREFUSED', 'ETIMEDOUT'), context: { error_type: 'Error' } }),
    ).not.toBe(sdk);
    expect(fingerprintParts({ error_message: 'connect ECONNREFUSED 10.0.0.5:5432', stack_trace: stack }).types).toEqual(['ECONNREFUSED']);
  });
});

describe('the upgrade from rule v2', () => {
  it('a report the normalisations leave alone keeps its fingerprint exactly (the hashed text still starts "v2")', () => {
    const report = { error_message: 'x', stack_trace: 'TypeError: x\n    at getUser (/app/src/users.ts:42:13)' };
    expect(fingerprint(report)).toBe(fingerprintV2(report));
  });

  it("the event carries the earlier rules' fingerprints that differ, nearest first; none for a chosen group", () => {
    const body = errorReportSchema.parse({ service: 's', environment: 'production', error_message: 'Failed to connect to [::1]:5432', stack_trace: '' });
    const event = errorToEvent(body, '2026-11-29T00:00:00.000Z');
    expect(earlierList(event.previous_fingerprint)).toEqual([fingerprintV2(body), previousFingerprint(body)]);
    expect(event.fingerprint).not.toBe(fingerprintV2(body));
    const untouched = errorReportSchema.parse({
      service: 's',
      environment: 'production',
      error_message: 'x',
      stack_trace: 'TypeError: x\n    at getUser (/app/src/users.ts:42:13)',
    });
    expect(earlierList(errorToEvent(untouched, '2026-11-29T00:00:00.000Z').previous_fingerprint)).toEqual([previousFingerprint(untouched)]);
    expect(earlierFingerprints({ ...body, fingerprint: ['mine'] }, 'f'.repeat(64))).toBe('');
    // a row written before v3 holds one fingerprint, read as a list of one
    expect(earlierList('a'.repeat(64))).toEqual(['a'.repeat(64)]);
  });
});
