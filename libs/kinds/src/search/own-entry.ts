// A search compiler's table looked up by a name a user typed: its own entries only. A plain
// object also answers `constructor`, `toString`, `__proto__` and `hasOwnProperty` from
// Object.prototype, whose functions would then be written into SQL (docs/dashboard.md, "Search syntax").

export const ownEntry = <V>(table: Readonly<Record<string, V>>, name: string): V | undefined => (Object.hasOwn(table, name) ? table[name] : undefined);
