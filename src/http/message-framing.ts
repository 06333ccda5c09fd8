// How an HTTP/1.1 message's body is delimited (RFC 9112 section 6), read from its head: for requests the front relays,
// and for the answers uWS sends back (which always carry Content-Length, or no body).

/** A body of `bytes` bytes (0: none), a chunked one, or one whose end cannot be known (conflicting or malformed fields). */
export type BodyFraming = { kind: 'length'; bytes: number } | { kind: 'chunked' } | { kind: 'unknown' };

/** What follows an answer's head: a body framed so, a switch of protocols (101: the connection is a tunnel), or nothing yet (another 1xx). */
export type AnswerFraming = BodyFraming | { kind: 'tunnel' } | { kind: 'interim' };

/** The method of a request head (latin1 text, request line first). */
export function methodOf(head: string): string {
  return head.slice(0, head.indexOf(' '));
}

/** The body framing of a request head: Transfer-Encoding ending in chunked, else equal Content-Length fields, else none. */
export function requestFraming(head: string): BodyFraming {
  const fields = fieldsOf(head);
  const lengths = fields.get('content-length') ?? [];
  const codings = fields.get('transfer-encoding');
  if (codings) {
    const last = codings.join(',').split(',').pop()?.trim().toLowerCase();
    return lengths.length === 0 && last === 'chunked' ? { kind: 'chunked' } : { kind: 'unknown' };
  }
  if (lengths.length === 0) return { kind: 'length', bytes: 0 };
  if (!lengths.every((v) => v === lengths[0]) || !/^[0-9]{1,15}$/.test(lengths[0])) return { kind: 'unknown' };
  return { kind: 'length', bytes: Number(lengths[0]) };
}

/** The framing of an answer head to a request of `method`: no body for HEAD, 204 and 304; uWS sends no close-delimited body. */
export function answerFraming(head: string, method: string): AnswerFraming {
  const status = Number(head.slice(9, 12));
  if (status === 101) return { kind: 'tunnel' };
  if (status >= 100 && status < 200) return { kind: 'interim' };
  if (method === 'HEAD' || status === 204 || status === 304) return { kind: 'length', bytes: 0 };
  return requestFraming(head);
}

/** Header fields of a head by lower-cased name, values trimmed, repeats kept in order. */
function fieldsOf(head: string): Map<string, string[]> {
  const fields = new Map<string, string[]>();
  for (const line of head.split('\r\n').slice(1)) {
    const colon = line.indexOf(':');
    if (colon <= 0) continue;
    const name = line.slice(0, colon).toLowerCase();
    const list = fields.get(name) ?? [];
    list.push(line.slice(colon + 1).trim());
    fields.set(name, list);
  }
  return fields;
}
