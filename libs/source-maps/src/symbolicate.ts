import { originalPositionFor, sourceContentFor, TraceMap } from '@jridgewell/trace-mapping';
import { parseStack, type JsFrame } from './stack-frames.ts';
import { urlKey } from './url-key.ts';

// Symbolication for display (docs/source-maps.md): each frame of a stack whose file has a
// map is shown at its original file, line, column and function, with a few lines of the
// original source around it when the map carries its sources. Read only: the stored event
// keeps its minified stack, and grouping does not depend on maps (fingerprint.md).

export const CONTEXT_LINES = 3;

export interface SymbolicatedFrame {
  raw: string;
  /** Null when the line is not a frame (the error's own line, a note). */
  minified: { function: string; url: string; line: number; column: number } | null;
  /** Null when no map was found for the file, or the map has no mapping there. */
  original: {
    file: string;
    line: number;
    column: number;
    function: string;
    context: { start: number; lines: string[] } | null;
  } | null;
}

/** Finds (and parses) the map of a file URL key; null when there is none. */
export type MapLookup = (key: string, frame: JsFrame) => Promise<TraceMap | null>;

export function parseMap(json: string | object): TraceMap {
  return new TraceMap(typeof json === 'string' ? json : (json as never));
}

function context(map: TraceMap, source: string, line: number) {
  const content = sourceContentFor(map, source);
  if (content === null || content === undefined) return null;
  const lines = content.split('\n');
  const start = Math.max(1, line - CONTEXT_LINES);
  const end = Math.min(lines.length, line + CONTEXT_LINES);
  return { start, lines: lines.slice(start - 1, end).map((l) => l.slice(0, 500)) };
}

type Position = ReturnType<typeof originalPositionFor>;

export async function symbolicate(stack: string, lookup: MapLookup): Promise<SymbolicatedFrame[]> {
  const maps = new Map<string, Promise<TraceMap | null>>();
  const lines: Array<{ raw: string; frame: JsFrame | null; map: TraceMap | null; pos: Position | null }> = [];
  for (const { raw, frame } of parseStack(stack)) {
    if (!frame) {
      lines.push({ raw, frame, map: null, pos: null });
      continue;
    }
    const key = urlKey(frame.url);
    if (!maps.has(key))
      maps.set(
        key,
        lookup(key, frame).catch(() => null),
      );
    const map = await maps.get(key)!;
    const pos = map ? originalPositionFor(map, { line: frame.line, column: Math.max(0, frame.column - 1) }) : null;
    lines.push({ raw, frame, map, pos });
  }
  // A frame's position is a call (or the throw) inside its function, so the name mapped there
  // is the callee's: a function's original name is the one its caller's frame maps to. Where
  // the caller maps no name (the outermost frame, a caller without a map, a computed call),
  // the frame keeps its minified name rather than show another function's.
  const frames = lines.filter((l) => l.frame);
  const calledName = new Map(frames.map((l, i) => [l, frames[i + 1]?.pos?.name ?? null]));
  return lines.map(({ raw, frame, map, pos }, i): SymbolicatedFrame => {
    if (!frame) return { raw, minified: null, original: null };
    const minified = { function: frame.function, url: frame.url, line: frame.line, column: frame.column };
    if (!map || !pos || pos.source === null || pos.line === null) return { raw, minified, original: null };
    return {
      raw,
      minified,
      original: {
        file: pos.source,
        line: pos.line,
        column: (pos.column ?? 0) + 1,
        function: calledName.get(lines[i]) ?? frame.function,
        context: context(map, pos.source, pos.line),
      },
    };
  });
}
