// IPP/1.1 message encoding and decoding (RFC 8010): attribute groups, value tags, collections.
// Written here, not taken from npm: `ipp` 2.0.1 (the registry's latest) declares engines node <4.0.0 and calls the
// deprecated `new Buffer()` (DEP0005 warnings on Node 20), and `ipp-encoder` 5.0.0 decodes rangeOfInteger (copies-supported)
// as a string and flattens collections (media-col-ready) into plain values, while neither ships TypeScript types.

/** Delimiter tags of attribute groups. */
export const GROUP = { operation: 0x01, job: 0x02, end: 0x03, printer: 0x04, unsupported: 0x05 } as const;

/** Value tags used by this client (RFC 8010 section 3.5). */
export const TAG = {
  unsupported: 0x10,
  unknown: 0x12,
  noValue: 0x13,
  integer: 0x21,
  boolean: 0x22,
  enum: 0x23,
  octetString: 0x30,
  dateTime: 0x31,
  resolution: 0x32,
  rangeOfInteger: 0x33,
  begCollection: 0x34,
  textWithLanguage: 0x35,
  nameWithLanguage: 0x36,
  endCollection: 0x37,
  text: 0x41,
  name: 0x42,
  keyword: 0x44,
  uri: 0x45,
  uriScheme: 0x46,
  charset: 0x47,
  naturalLanguage: 0x48,
  mimeMediaType: 0x49,
  memberAttrName: 0x4a,
} as const;

/** A decoded attribute value. */
export type IppValue = string | number | boolean | { lower: number; upper: number } | { x: number; y: number; units: number } | IppCollection | null;
/** A decoded collection: member name → values. */
export interface IppCollection {
  [member: string]: IppValue[];
}

/** One attribute to encode: its value tag and one or more values. */
export interface IppAttribute {
  tag: number;
  name: string;
  values: Array<string | number | boolean | { lower: number; upper: number } | IppAttribute[]>;
}

/** A request or response: version 2.0, operation or status code, request id, groups of attributes. */
export interface IppMessage {
  code: number;
  requestId: number;
  groups: Array<{ tag: number; attributes: Map<string, IppValue[]> }>;
}

/** Thrown when bytes are not a well-formed IPP message. */
export class IppDecodeError extends Error {
  readonly code = 'IPP_DECODE';
}

/** Encodes a request: version 2.0, `operation`, `requestId`, the groups in order, the end tag, then `data`. */
export function encodeRequest(operation: number, requestId: number, groups: Array<{ tag: number; attributes: IppAttribute[] }>, data?: Uint8Array): Buffer {
  const parts: Buffer[] = [Buffer.from([0x02, 0x00, operation >> 8, operation & 0xff, (requestId >>> 24) & 0xff, (requestId >>> 16) & 0xff, (requestId >>> 8) & 0xff, requestId & 0xff])];
  for (const group of groups) {
    parts.push(Buffer.from([group.tag]));
    for (const attribute of group.attributes) parts.push(...encodeAttribute(attribute));
  }
  parts.push(Buffer.from([GROUP.end]));
  if (data) parts.push(Buffer.from(data.buffer, data.byteOffset, data.byteLength));
  return Buffer.concat(parts);
}

function encodeAttribute(attribute: IppAttribute): Buffer[] {
  return attribute.values.flatMap((value, i) => {
    const name = i === 0 ? attribute.name : '';
    if (Array.isArray(value)) return encodeCollection(name, value);
    return [header(attribute.tag, name), lengthPrefixed(encodeValue(attribute.tag, value))];
  });
}

function encodeCollection(name: string, members: IppAttribute[]): Buffer[] {
  const out = [header(TAG.begCollection, name), lengthPrefixed(Buffer.alloc(0))];
  for (const member of members) {
    out.push(header(TAG.memberAttrName, ''), lengthPrefixed(Buffer.from(member.name, 'utf8')));
    for (const part of encodeAttribute({ ...member, name: '' })) out.push(part);
  }
  out.push(header(TAG.endCollection, ''), lengthPrefixed(Buffer.alloc(0)));
  return out;
}

function header(tag: number, name: string): Buffer {
  const n = Buffer.from(name, 'utf8');
  const b = Buffer.alloc(3 + n.length);
  b[0] = tag;
  b.writeUInt16BE(n.length, 1);
  n.copy(b, 3);
  return b;
}

function lengthPrefixed(value: Buffer): Buffer {
  const b = Buffer.alloc(2 + value.length);
  b.writeUInt16BE(value.length, 0);
  value.copy(b, 2);
  return b;
}

function encodeValue(tag: number, value: string | number | boolean | { lower: number; upper: number }): Buffer {
  if (tag === TAG.integer || tag === TAG.enum) {
    const b = Buffer.alloc(4);
    b.writeInt32BE(value as number, 0);
    return b;
  }
  if (tag === TAG.boolean) return Buffer.from([value ? 1 : 0]);
  if (tag === TAG.rangeOfInteger) {
    const r = value as { lower: number; upper: number };
    const b = Buffer.alloc(8);
    b.writeInt32BE(r.lower, 0);
    b.writeInt32BE(r.upper, 4);
    return b;
  }
  return Buffer.from(String(value), 'utf8');
}

/** Decodes a response (or request) header and attribute groups; document data after the end tag is ignored. */
export function decodeMessage(bytes: Uint8Array): IppMessage {
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (buf.length < 9) throw new IppDecodeError(`IPP message of ${buf.length} bytes is too short`);
  const message: IppMessage = { code: buf.readUInt16BE(2), requestId: buf.readUInt32BE(4), groups: [] };
  const reader = { buf, pos: 8 };
  let current: Map<string, IppValue[]> | null = null;
  let lastName = '';
  while (reader.pos < buf.length) {
    const tag = buf[reader.pos];
    if (tag === GROUP.end) return message;
    if (tag < 0x10) {
      reader.pos += 1;
      current = new Map();
      message.groups.push({ tag, attributes: current });
      continue;
    }
    if (!current) throw new IppDecodeError('attribute outside of a group');
    const { name, value } = readValue(reader);
    if (name) lastName = name;
    if (!lastName) throw new IppDecodeError('additional value without an attribute');
    const list = current.get(lastName) ?? [];
    list.push(value);
    current.set(lastName, list);
  }
  throw new IppDecodeError('IPP message has no end-of-attributes tag');
}

interface Reader {
  buf: Buffer;
  pos: number;
}

function take(reader: Reader, length: number): Buffer {
  if (reader.pos + length > reader.buf.length) throw new IppDecodeError('IPP message is truncated');
  const out = reader.buf.subarray(reader.pos, reader.pos + length);
  reader.pos += length;
  return out;
}

function readValue(reader: Reader): { name: string; value: IppValue } {
  const tag = take(reader, 1)[0];
  const name = take(reader, take(reader, 2).readUInt16BE(0)).toString('utf8');
  const raw = take(reader, take(reader, 2).readUInt16BE(0));
  if (tag === TAG.begCollection) return { name, value: readCollection(reader) };
  return { name, value: decodeValue(tag, raw) };
}

function readCollection(reader: Reader): IppCollection {
  const collection: IppCollection = {};
  let member = '';
  for (;;) {
    const next = reader.buf[reader.pos];
    if (next === undefined) throw new IppDecodeError('collection is not closed');
    const { value } = readValue(reader);
    if (next === TAG.endCollection) return collection;
    if (next === TAG.memberAttrName) {
      member = String(value);
      collection[member] = [];
    } else if (member) {
      collection[member].push(value);
    }
  }
}

function decodeValue(tag: number, raw: Buffer): IppValue {
  switch (tag) {
    case TAG.integer:
    case TAG.enum:
      return raw.length === 4 ? raw.readInt32BE(0) : null;
    case TAG.boolean:
      return raw[0] === 1;
    case TAG.rangeOfInteger:
      return raw.length === 8 ? { lower: raw.readInt32BE(0), upper: raw.readInt32BE(4) } : null;
    case TAG.resolution:
      return raw.length === 9 ? { x: raw.readInt32BE(0), y: raw.readInt32BE(4), units: raw[8] } : null;
    case TAG.unsupported:
    case TAG.unknown:
    case TAG.noValue:
    case TAG.endCollection:
      return null;
    case TAG.octetString:
    case TAG.dateTime:
      return raw.toString('hex');
    case TAG.textWithLanguage:
    case TAG.nameWithLanguage:
      return withLanguage(raw);
    default:
      return raw.toString('utf8');
  }
}

function withLanguage(raw: Buffer): string {
  if (raw.length < 4) return '';
  const langLength = raw.readUInt16BE(0);
  const textLength = raw.readUInt16BE(2 + langLength);
  return raw.subarray(4 + langLength, 4 + langLength + textLength).toString('utf8');
}
