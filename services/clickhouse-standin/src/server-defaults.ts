// Settings whose chDB (clickhouse-local) default differs from a ClickHouse
// server's. Code tested against the stand-in should meet server behaviour, e.g.
// UInt64 quoted in JSON, ISO-8601 'T…Z' rejected by the basic DateTime parser,
// mutations applied asynchronously.
export const SERVER_DEFAULT_SETTINGS: Readonly<Record<string, string>> = {
  output_format_json_quote_64bit_integers: '1',
  date_time_input_format: 'basic',
  async_insert: '0',
  mutations_sync: '0',
  implicit_select: '0',
  allow_introspection_functions: '0',
};

export function serverDefaultArgs(): string[] {
  return Object.entries(SERVER_DEFAULT_SETTINGS).map(([name, value]) => `--${name}=${value}`);
}
