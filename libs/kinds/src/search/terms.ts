import type { SearchNode } from './tree.ts';

/** The text a search looks for in messages (its words and phrases, not negated), for the UI to highlight; wildcards split them. */
export function searchTerms(node: SearchNode | null): string[] {
  const out = new Set<string>();
  const walk = (n: SearchNode, negated: boolean) => {
    if (n.type === 'and' || n.type === 'or') for (const c of n.children) walk(c, negated);
    else if (n.type === 'not') walk(n.child, !negated);
    else if (!negated && (n.type === 'text' || (n.type === 'field' && n.field === 'message' && n.op === '='))) {
      for (const part of n.wildcard ? n.value.split('*') : [n.value]) if (part.trim()) out.add(part);
    }
  };
  if (node) walk(node, false);
  return [...out];
}
