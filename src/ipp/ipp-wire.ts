// IPP message encoding and decoding (RFC 8010): attribute groups, value tags, collections; requests and responses.
// Written here, not taken from npm: `ipp` 2.0.1 (the registry's latest) declares engines node <4.0.0 and calls the
// deprecated `new Buffer()` (DEP0005 warnings on Node 20), and `ipp-encoder` 5.0.0 decodes rangeOfInteger (copies-supported)
// as a string and flattens collections (media-col-ready) into plain values, while neither ships TypeScript types.
import { IppDecodeError } from '../errors';

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

/** A resolution value: cross-feed and feed resolution, units 3 (dots per inch) or 4 (dots per cm). */
export interface IppResolution {
  x: number;
  y: number;
  units: number;
}

/** One value to encode: by its tag a string, integer, boolean, range, resolution, date (dateTime), bytes (octetString), or a collection's members. */
export type IppEncodable = string | number | boolean | { lower: number; upper: number } | IppResolution | Date | Uint8Array | IppAttribute[];

/** One attribute to encode: its value tag and one or more values (out-of-band tags such as noValue take one empty value). */
export interface IppAttribute {
  tag: number;
  name: string;
  values: IppEncodable[];
}

/** A request or response: version 2.0, operation or status code, request id, groups of attributes. */
export interface IppMessage {
  code: number;
  requestId: number;
  groups: Array<{ tag: number; attributes: Map<string, IppValue[]> }>;
}

/** How deep collections may nest in one message (media-col holds media-size: 2 levels; PWG 5100 uses at most 4). */
export const MAX_COLLECTION_DEPTH = 8;
/** How many values (attributes, additional values, collection members and their values) one request may hold; a
 * printer's own answers are not counted (an office printer's media-col-database runs to thousands). */
export const MAX_REQUEST_VALUES = 10_000;

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

function encodeValue(tag: number, value: Exclude<IppEncodable, IppAttribute[]>): Buffer {
  if (tag === TAG.unsupported || tag === TAG.unknown || tag === TAG.noValue) return Buffer.alloc(0);
  if (tag === TAG.resolution) {
    const r = value as IppResolution;
    const b = Buffer.alloc(9);
    b.writeInt32BE(r.x, 0);
    b.writeInt32BE(r.y, 4);
    b[8] = r.units;
    return b;
  }
  if (tag === TAG.dateTime) return encodeDateTime(value as Date);
  if (value instanceof Uint8Array) return Buffer.from(value);
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

/** RFC 2579 DateAndTime in UTC: year, month, day, hour, minutes, seconds, deciseconds, '+', 0, 0. */
function encodeDateTime(date: Date): Buffer {
  const b = Buffer.alloc(11);
  b.writeUInt16BE(date.getUTCFullYear(), 0);
  b[2] = date.getUTCMonth() + 1;
  b[3] = date.getUTCDate();
  b[4] = date.getUTCHours();
  b[5] = date.getUTCMinutes();
  b[6] = date.getUTCSeconds();
  b[7] = Math.floor(date.getUTCMilliseconds() / 100);
  b[8] = 0x2b;
  return b;
}

/** Encodes a response: `version` (major, minor), `status`, `requestId`, the groups in order, the end tag. */
export function encodeResponse(version: readonly [number, number], status: number, requestId: number, groups: Array<{ tag: number; attributes: IppAttribute[] }>): Buffer {
  const head = Buffer.alloc(8);
  head[0] = version[0];
  head[1] = version[1];
  head.writeUInt16BE(status, 2);
  head.writeUInt32BE(requestId >>> 0, 4);
  const parts: Buffer[] = [head];
  for (const group of groups) {
    parts.push(Buffer.from([group.tag]));
    for (const attribute of group.attributes) parts.push(...encodeAttribute(attribute));
  }
  parts.push(Buffer.from([GROUP.end]));
  return Buffer.concat(parts);
}

/** A decoded attribute of a request, with the value tag of its first value (for checks of syntax). */
export interface IppRequestAttribute {
  name: string;
  tag: number;
  values: IppValue[];
}

/** A decoded request: version, operation, request id, groups (attributes in wire order), and where the document data starts. */
export interface IppRequest {
  version: [number, number];
  operation: number;
  requestId: number;
  groups: Array<{ tag: number; attributes: IppRequestAttribute[] }>;
  /** Offset of the first document byte after the end-of-attributes tag. */
  dataOffset: number;
}

/** Decodes a request's header and attribute groups, keeping their order and value tags; throws IppDecodeError only. */
export function decodeRequest(bytes: Uint8Array): IppRequest {
  return decodeOnly(() => readRequest(bytes));
}

function readRequest(bytes: Uint8Array): IppRequest {
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (buf.length < 9) throw new IppDecodeError(`IPP message of ${buf.length} bytes is too short`);
  const request: IppRequest = { version: [buf[0], buf[1]], operation: buf.readUInt16BE(2), requestId: buf.readUInt32BE(4), groups: [], dataOffset: 0 };
  const reader: Reader = { buf, pos: 8, values: 0, maxValues: MAX_REQUEST_VALUES };
  let current: IppRequestAttribute[] | null = null;
  let last: IppRequestAttribute | null = null;
  while (reader.pos < buf.length) {
    const tag = buf[reader.pos];
    if (tag === GROUP.end) {
      request.dataOffset = reader.pos + 1;
      return request;
    }
    if (tag < 0x10) {
      reader.pos += 1;
      current = [];
      last = null;
      request.groups.push({ tag, attributes: current });
      continue;
    }
    if (!current) throw new IppDecodeError('attribute outside of a group');
    const { name, value } = readValue(reader, 0);
    if (name) {
      last = { name, tag, values: [] };
      current.push(last);
    }
    if (!last) throw new IppDecodeError('additional value without an attribute');
    last.values.push(value);
  }
  throw new IppDecodeError('IPP message has no end-of-attributes tag');
}

/** Decodes a response (or request) header and attribute groups; document data after the end tag is ignored; throws IppDecodeError only. */
export function decodeMessage(bytes: Uint8Array): IppMessage {
  return decodeOnly(() => readMessage(bytes));
}

function readMessage(bytes: Uint8Array): IppMessage {
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (buf.length < 9) throw new IppDecodeError(`IPP message of ${buf.length} bytes is too short`);
  const message: IppMessage = { code: buf.readUInt16BE(2), requestId: buf.readUInt32BE(4), groups: [] };
  const reader: Reader = { buf, pos: 8, values: 0, maxValues: Infinity };
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
    const { name, value } = readValue(reader, 0);
    if (name) lastName = name;
    if (!lastName) throw new IppDecodeError('additional value without an attribute');
    const list = current.get(lastName) ?? [];
    list.push(value);
    current.set(lastName, list);
  }
  throw new IppDecodeError('IPP message has no end-of-attributes tag');
}

/** Runs a decoder; anything it throws besides IppDecodeError (a RangeError from a bad length) becomes one. */
function decodeOnly<T>(decode: () => T): T {
  try {
    return decode();
  } catch (err) {
    if (err instanceof IppDecodeError) throw err;
    throw new IppDecodeError('IPP message is malformed');
  }
}

interface Reader {
  buf: Buffer;
  pos: number;
  /** Values read so far, and how many the message may hold. */
  values: number;
  maxValues: number;
}

function take(reader: Reader, length: number): Buffer {
  if (reader.pos + length > reader.buf.length) throw new IppDecodeError('IPP message is truncated');
  const out = reader.buf.subarray(reader.pos, reader.pos + length);
  reader.pos += length;
  return out;
}

/** One value at `depth` collections deep (0: an attribute of a group). */
function readValue(reader: Reader, depth: number): { name: string; value: IppValue } {
  if (++reader.values > reader.maxValues) throw new IppDecodeError(`IPP request holds more than ${reader.maxValues} values`);
  const tag = take(reader, 1)[0];
  const name = take(reader, take(reader, 2).readUInt16BE(0)).toString('utf8');
  const raw = take(reader, take(reader, 2).readUInt16BE(0));
  if (tag === TAG.begCollection) return { name, value: readCollection(reader, depth + 1) };
  return { name, value: decodeValue(tag, raw) };
}

function readCollection(reader: Reader, depth: number): IppCollection {
  if (depth > MAX_COLLECTION_DEPTH) throw new IppDecodeError(`collections nest more than ${MAX_COLLECTION_DEPTH} deep`);
  const collection: IppCollection = {};
  let member = '';
  for (;;) {
    const next = reader.buf[reader.pos];
    if (next === undefined) throw new IppDecodeError('collection is not closed');
    const { value } = readValue(reader, depth);
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

/** The text of a textWithLanguage or nameWithLanguage value (RFC 8010 3.9): language and text, each length-prefixed, filling the value. */
function withLanguage(raw: Buffer): string {
  const langLength = raw.length >= 2 ? raw.readUInt16BE(0) : -1;
  const textLength = langLength >= 0 && raw.length >= 4 + langLength ? raw.readUInt16BE(2 + langLength) : -1;
  if (textLength < 0 || raw.length !== 4 + langLength + textLength) throw new IppDecodeError('a textWithLanguage or nameWithLanguage value is malformed');
  return raw.subarray(4 + langLength).toString('utf8');
}
