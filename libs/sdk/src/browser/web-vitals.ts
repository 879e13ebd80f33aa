// Browser only: the Core Web Vitals and the navigation's timing for the page-load span
// (docs/sdk.md#browser-tracing), read with PerformanceObserver (buffered, so entries from
// before the SDK loaded count). LCP stops at the first input; CLS is the largest session window
// of layout shifts (gaps under 1 s, windows under 5 s); INP the slowest interaction (the 98th
// percentile past 50 of them), from Event Timing. Values are read when the span is sent, when
// the page is hidden: LCP, CLS and INP are only final then.
import type { Metadata } from '../types.js';

type Entry = PerformanceEntry & Record<string, unknown>;

export interface VitalsReader {
  /** The attributes as they stand now: `vitals.*` and `navigation.*`. */
  read(): Metadata;
  stop(): void;
}

function observe(type: string, fn: (entries: Entry[]) => void, extra: Record<string, unknown> = {}): PerformanceObserver | undefined {
  try {
    if (!PerformanceObserver.supportedEntryTypes?.includes(type)) return undefined;
    const o = new PerformanceObserver((list) => fn(list.getEntries() as Entry[]));
    o.observe({ type, buffered: true, ...extra } as PerformanceObserverInit);
    return o;
  } catch {
    return undefined;
  }
}

const ms = (n: unknown): number | undefined => (typeof n === 'number' && Number.isFinite(n) && n >= 0 ? Math.round(n) : undefined);

export function readVitals(): VitalsReader {
  let lcp: number | undefined;
  let fcp: number | undefined;
  let cls = 0;
  let windowValue = 0;
  let windowStart = 0;
  let windowLast = 0;
  const interactions = new Map<number, number>();
  let firstInput: number | undefined;
  let inputSeen = false;

  const observers = [
    observe('largest-contentful-paint', (es) => {
      if (inputSeen) return;
      for (const e of es) lcp = ms((e.renderTime as number) || (e.loadTime as number) || e.startTime);
    }),
    observe('paint', (es) => {
      for (const e of es) if (e.name === 'first-contentful-paint') fcp = ms(e.startTime);
    }),
    observe('layout-shift', (es) => {
      for (const e of es) {
        if (e.hadRecentInput) continue;
        const t = e.startTime;
        if (windowValue > 0 && t - windowLast < 1000 && t - windowStart < 5000) windowValue += e.value as number;
        else {
          windowValue = e.value as number;
          windowStart = t;
        }
        windowLast = t;
        cls = Math.max(cls, windowValue);
      }
    }),
    observe('first-input', (es) => {
      inputSeen = true;
      for (const e of es) firstInput ??= ms(e.duration);
    }),
    observe(
      'event',
      (es) => {
        for (const e of es) {
          const id = e.interactionId as number;
          if (id) interactions.set(id, Math.max(interactions.get(id) ?? 0, e.duration));
        }
      },
      { durationThreshold: 16 },
    ),
  ];

  const inp = (): number | undefined => {
    const all = [...interactions.values()].sort((a, b) => b - a);
    if (all.length === 0) return firstInput;
    return ms(all[Math.min(all.length - 1, Math.floor(all.length / 50))]);
  };

  return {
    read() {
      const nav = performance.getEntriesByType?.('navigation')[0] as (PerformanceNavigationTiming & { activationStart?: number }) | undefined;
      const start = nav?.activationStart ?? 0;
      const out: Metadata = {
        'vitals.lcp_ms': lcp,
        'vitals.fcp_ms': fcp,
        'vitals.cls': Math.round(cls * 1000) / 1000,
        'vitals.inp_ms': inp(),
        'vitals.ttfb_ms': nav ? ms(nav.responseStart - start) : undefined,
      };
      if (nav) {
        out['navigation.type'] = nav.type;
        out['navigation.dns_ms'] = ms(nav.domainLookupEnd - nav.domainLookupStart);
        out['navigation.connect_ms'] = ms(nav.connectEnd - nav.connectStart);
        out['navigation.request_ms'] = ms(nav.responseStart - nav.requestStart);
        out['navigation.response_ms'] = ms(nav.responseEnd - nav.responseStart);
        out['navigation.dom_interactive_ms'] = ms(nav.domInteractive);
        out['navigation.dom_content_loaded_ms'] = ms(nav.domContentLoadedEventEnd);
        out['navigation.load_ms'] = ms(nav.loadEventEnd) || undefined;
        out['navigation.transfer_bytes'] = ms(nav.transferSize);
      }
      for (const k of Object.keys(out)) if (out[k] === undefined) delete out[k];
      return out;
    },
    stop() {
      for (const o of observers) o?.disconnect();
    },
  };
}
