// multipart/form-data bodies: clickhouse-js sends `query` and `param_*` this way
// when bound parameters are too long for the URL. File parts are ClickHouse's
// "external data" tables, which the stand-in does not offer; the caller is told
// they were present.
export interface MultipartForm {
  fields: [string, string][];
  hasFiles: boolean;
}

export function multipartBoundary(contentType: string | undefined): string | undefined {
  if (!contentType || !/^multipart\/form-data/i.test(contentType)) return undefined;
  const match = /boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(contentType);
  return match ? (match[1] ?? match[2]) : undefined;
}

export function parseMultipartForm(body: Buffer, boundary: string): MultipartForm {
  const form: MultipartForm = { fields: [], hasFiles: false };
  const delimiter = Buffer.from(`--${boundary}`);
  let pos = body.indexOf(delimiter);
  while (pos >= 0) {
    pos += delimiter.length;
    if (body[pos] === 0x2d && body[pos + 1] === 0x2d) break; // closing `--boundary--`
    const headersEnd = body.indexOf('\r\n\r\n', pos);
    if (headersEnd < 0) break;
    const headers = body.toString('utf8', pos, headersEnd);
    const next = body.indexOf(Buffer.from(`\r\n--${boundary}`), headersEnd + 4);
    const valueEnd = next < 0 ? body.length : next;
    const name = /(?:^|[;\s])name="([^"]*)"/i.exec(headers)?.[1];
    if (/filename=/i.test(headers)) form.hasFiles = true;
    else if (name !== undefined) form.fields.push([name, body.toString('utf8', headersEnd + 4, valueEnd)]);
    pos = next < 0 ? -1 : next + 2;
  }
  return form;
}
