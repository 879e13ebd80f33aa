// JavaScript stack frames as V8 ("    at fn (https://host/app.js:1:234)", "    at https://host/app.js:1:234")
// and Gecko/WebKit ("fn@https://host/app.js:1:234") print them, with their position.

export interface JsFrame {
  /** The frame's line as it was. */
  raw: string;
  function: string;
  url: string;
  line: number;
  column: number;
}

const V8 = /^\s*at\s+(?:(.*?)\s+\()?((?:[a-z][\w+.-]*:\/\/|\/|~\/)[^\s()]*?):(\d+):(\d+)\)?\s*$/i;
const GECKO = /^\s*([^\s@]*)@((?:[a-z][\w+.-]*:\/\/|\/)\S*?):(\d+):(\d+)\s*$/i;

/** Each line of a stack, with its frame when it is one that names a file position. */
export function parseStack(stack: string, maxLines = 200): Array<{ raw: string; frame: JsFrame | null }> {
  return stack
    .split('\n')
    .slice(0, maxLines)
    .map((full) => {
      const raw = full.slice(0, 2000);
      const m = V8.exec(raw) ?? GECKO.exec(raw);
      if (!m) return { raw, frame: null };
      return { raw, frame: { raw, function: (m[1] ?? '').replace(/^async\s+/, '').trim(), url: m[2], line: Number(m[3]), column: Number(m[4]) } };
    });
}
