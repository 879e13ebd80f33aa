import { framePath, isBundle } from './frame-path.ts';
import { inApp, type Platform } from './in-app.ts';

// A stack trace read as frames, per platform (docs/fingerprint.md, "Frames"): V8 (Node.js,
// Chrome, Edge), Gecko and WebKit (Firefox, Safari), Python, Java (and Kotlin, Scala), .NET,
// Go panics and Ruby. Each frame is its function and its file without line or column, and
// whether it is the application's own code (in-app) or a dependency's or the runtime's.
// A chained exception (Java's and the SDK's "Caused by:", Python's "During handling…",
// .NET's " ---> ") starts a new part. Every line is bounded and every pattern linear in it.

export interface Frame {
  platform: Platform;
  fn: string;
  file: string;
  inApp: boolean;
}

export interface StackPart {
  /** The frames of one exception of the chain, in the order printed. */
  frames: Frame[];
}

export interface ParsedStack {
  parts: StackPart[];
  /** The types of the chained exceptions (causes, inner exceptions), in the order printed. */
  causes: string[];
  /** Python prints the innermost frame last. */
  innermostLast: boolean;
}

const LINE_CHARS = 1000;
const MAX_LINES = 2000;

const PY = /^\s*File "(.*?)", line \d+, in (.*)$/;
const JAVA = /^\s*at\s+(?:[\w.$-]+\/\/?)?((?:[\w$]+\.)+[\w$<>-]+)\(([\w$.-]+(?::\d+)?|Native Method|Unknown Source|<generated>)\)/;
// A lambda's synthetic class names its address ("Foo$$Lambda$123/0x0000000801234c00"): not a module
const JAVA_LAMBDA = /(\$\$Lambda(?:\$\d+)?)\/0x[0-9a-f]+/g;
const DOTNET = /^\s*at\s+([^\s(]+)\(([^)]*)\)(?:\s+in\s+(.+?))?\s*$/;
const V8 = /^\s*at\s+(?:(.*?)\s+\()?(.*?)(?::\d+)?(?::\d+)?\)?\s*$/;
const GECKO = /^\s*([^\s@]*)@(\S+?)(?::\d+)?(?::\d+)?\s*$/;
const GO_FILE = /^\t(\S+\.go):\d+(?: \+0x[0-9a-f]+)?$/;
const GO_FN = /^(?:created by )?(\S+?)(?:\([^()]*\))?(?: in goroutine \d+)?$/;
const RUBY = /^\s*(?:from\s+)?([^\s:][^:]*):\d+:in [`']([^'`]*)'/;
const CAUSE = /^\s*(?:Caused by:|---> )\s*(.*)$/;
const PY_CHAIN = /^(?:During handling of the above exception|The above exception was the direct cause)/;
const TYPE_HEAD = /^\s*((?:[A-Za-z_$][\w$]*(?:\.|::|\+))*[A-Za-z_$][\w$]*)(?::\s|:$)/;

/** The last dotted or slashed name of a JavaScript function: browsers name one method differently ("UserCard.render", "render"). */
function jsName(raw: string, file: string): string {
  const name = raw
    .replace(/^async\*?\s*/, '')
    .replace(/^new\s+/, '')
    .replace(/\s*\[as [^\]]*\]$/, '')
    .trim();
  const last = name.split(/[./]/).filter(Boolean).pop() ?? '';
  if (last === '' || last.startsWith('<') || last === 'anonymous' || last === 'Function') return '?';
  // A bundler renames functions to one or two letters; the name changes with every build.
  if (last.length <= 2 && isBundle(file)) return '?';
  return last;
}

function javaName(raw: string): string {
  return raw
    .replace(/\$\$Lambda(?:\$\d+)?(?:\/0x[0-9a-f]+)?(?:@[0-9a-f]+)?/g, '$$$$Lambda')
    .replace(/\$\$(?:EnhancerBy|FastClassBy|SpringCGLIB|CGLIB)\w*/g, '')
    .replace(/lambda\$(\w+?)\$\d+/g, 'lambda$$$1')
    .replace(/\$\d+/g, '$$<n>')
    .replace(/GeneratedMethodAccessor\d+/g, 'GeneratedMethodAccessor');
}

function dotnetName(raw: string): string {
  return raw
    .replace(/`\d+/g, '')
    .replace(/\[[^\]]*\]/g, '')
    .replace(/\.<(\w+)>d__\d+\.MoveNext$/, '.$1')
    .replace(/<>c(?:__DisplayClass\d+_\d+)?\.<(\w+)>b__\d+(?:_\d+)?$/, '$1.<lambda>')
    .replace(/lambda_method\d+/, 'lambda_method');
}

/** Ruby 3.4 prints 'User#save' where 3.3 printed `save': the file names the class either way. */
function rubyName(raw: string): string {
  return raw.replace(/^block \(\d+ levels\) in /, 'block in ').replace(/^((?:block|rescue|ensure) in )?[\w:]+[#.]/, '$1');
}

function goName(raw: string): string {
  const last = raw.slice(raw.lastIndexOf('/') + 1);
  return last.replace(/\.func\d+(?:\.\d+)*/g, '.func<n>');
}

const frame = (platform: Platform, fn: string, rawFile: string, file: string, rawFn = fn): Frame => ({ platform, fn, file, inApp: inApp(platform, rawFn, rawFile) });

/** The frames of a stack trace, in parts (one per chained exception). */
export function parseStack(stack: string): ParsedStack {
  const lines = stack.slice(0, MAX_LINES * LINE_CHARS).split('\n', MAX_LINES);
  const innermostLast = /^\s*Traceback \(most recent call last\)/.test(lines.find((l) => l.trim() !== '') ?? '');
  const parts: StackPart[] = [{ frames: [] }];
  const causes: string[] = [];
  const pyTypes: string[] = [];
  let afterPyFrame = false;
  const part = () => parts[parts.length - 1];
  const next = () => parts.length < 10 && part().frames.length > 0 && parts.push({ frames: [] });
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i].slice(0, LINE_CHARS);
    let m: RegExpExecArray | null;
    if ((m = CAUSE.exec(line))) {
      const t = TYPE_HEAD.exec(m[1].slice(0, 200))?.[1];
      if (t) causes.push(t);
      next();
    } else if (innermostLast) {
      if ((m = PY.exec(line))) {
        part().frames.push(frame('python', m[2].trim(), m[1], framePath(m[1])));
        afterPyFrame = true;
      } else if (PY_CHAIN.test(line)) {
        next();
      } else if (afterPyFrame && !/^\s/.test(line) && line.trim() !== '') {
        const t = TYPE_HEAD.exec(line.slice(0, 200))?.[1];
        if (t) pyTypes.push(t);
        afterPyFrame = false;
      }
    } else if ((m = GO_FILE.exec(line))) {
      const fn = GO_FN.exec((lines[i - 1] ?? '').slice(0, LINE_CHARS).trim());
      if (fn) part().frames.push(frame('go', goName(fn[1]), m[1], framePath(m[1]), fn[1]));
    } else if (/^\s*at\s/.test(line)) {
      // V8 puts a space before its parenthesis; Java and .NET never do.
      if (line.includes(' (') && (m = V8.exec(line))) {
        const file = framePath(m[2]);
        part().frames.push(frame('javascript', jsName(m[1] ?? '', file), m[2], file));
      } else if ((m = JAVA.exec(line.includes('$$Lambda') ? line.replace(JAVA_LAMBDA, '$1') : line))) part().frames.push(frame('java', javaName(m[1]), m[2], ''));
      else if ((m = DOTNET.exec(line))) part().frames.push(frame('dotnet', dotnetName(m[1]), m[3] ?? '', ''));
      else if ((m = V8.exec(line))) {
        const file = framePath(m[2]);
        part().frames.push(frame('javascript', jsName(m[1] ?? '', file), m[2], file));
      }
    } else if ((m = RUBY.exec(line))) {
      part().frames.push(frame('ruby', rubyName(m[2]), m[1], framePath(m[1])));
    } else if (line.includes('@') && (m = GECKO.exec(line.replace(/^(\s*)(global|eval|module) code@/, '$1$2_code@')))) {
      const file = framePath(m[2]);
      part().frames.push(frame('javascript', jsName(m[1], file), m[2], file));
    } else if (/^\s*\[native code\]\s*$/.test(line)) {
      part().frames.push({ platform: 'javascript', fn: '?', file: '', inApp: false });
    }
  }
  // Python's chained tracebacks print the cause first and the exception last.
  if (innermostLast) causes.push(...pyTypes.slice(0, -1));
  return { parts: parts.filter((p) => p.frames.length > 0), causes, innermostLast };
}
