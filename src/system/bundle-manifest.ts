// The manifest a RAUC bundle carries inside its CMS signature (verity bundles sign it inline), read from the bundle's tail.
import type { promises as fs } from 'node:fs';
import { BundleCheckError } from '../errors';
import { readFully } from './bundle-file';

/** A signature larger than this is not one RAUC made (a few certificates and the manifest). */
const MAX_SIGNATURE_BYTES = 1024 * 1024;

/** The bundle's manifest text and the bytes before its signature (the payload: data and hash tree). */
export interface SignedManifest {
  manifest: string;
  payloadBytes: number;
}

/**
 * Reads the signature at the end of the bundle open as `handle` (its size in the last 8 bytes, big-endian) and returns the
 * manifest it encapsulates. Throws BundleCheckError('payload') when the tail is not a CMS SignedData with content.
 */
export async function signedManifest(handle: fs.FileHandle): Promise<SignedManifest> {
  const size = (await handle.stat()).size;
  if (size < 8) throw refused('it is too short to carry a signature');
  const tail = Buffer.alloc(8);
  await readFully(handle, tail, size - 8);
  const signatureBytes = Number(tail.readBigUInt64BE(0));
  if (signatureBytes <= 0 || signatureBytes > MAX_SIGNATURE_BYTES || signatureBytes > size - 8) throw refused('its signature size is out of range');
  const signature = Buffer.alloc(signatureBytes);
  await readFully(handle, signature, size - 8 - signatureBytes);
  return { manifest: encapsulatedContent(signature).toString('utf8'), payloadBytes: size - 8 - signatureBytes };
}

/** ContentInfo { contentType, [0] SignedData { version, digestAlgorithms, encapContentInfo { eContentType, [0] OCTET STRING } } }. */
export function encapsulatedContent(der: Buffer): Buffer {
  const contentInfo = children(element(der, 0, 0x30));
  const signedData = children(element(der, expectTag(contentInfo[1], 0xa0).content, 0x30));
  const encap = children(expectTag(signedData[2], 0x30));
  if (encap.length < 2) throw refused('its signature carries no manifest (a detached signature)');
  const explicit = expectTag(encap[1], 0xa0);
  const octets = element(der, explicit.content, null);
  if (octets.tag === 0x04) return der.subarray(octets.content, octets.end);
  if (octets.tag === 0x24) return Buffer.concat(children(octets).map((part) => der.subarray(expectTag(part, 0x04).content, part.end)));
  throw refused('its signature\'s content is not an octet string');
}

/** One DER element: its tag, where it starts, where its content starts and where it ends. */
interface Element {
  der: Buffer;
  tag: number;
  start: number;
  content: number;
  end: number;
}

function element(der: Buffer, at: number, tag: number | null): Element {
  if (at + 2 > der.length) throw refused('its signature is cut short');
  const found = der[at];
  if (tag !== null && found !== tag) throw refused(`its signature is not CMS (tag ${found} at ${at})`);
  let length = der[at + 1];
  let content = at + 2;
  if (length & 0x80) {
    const count = length & 0x7f;
    if (count === 0 || count > 4 || content + count > der.length) throw refused('its signature has a length DER does not allow');
    length = 0;
    for (let i = 0; i < count; i += 1) length = length * 256 + der[content + i];
    content += count;
  }
  const end = content + length;
  if (end > der.length) throw refused('its signature is cut short');
  return { der, tag: found, start: at, content, end };
}

function children(parent: Element): Element[] {
  const out: Element[] = [];
  for (let at = parent.content; at < parent.end; at = out[out.length - 1].end) out.push(element(parent.der, at, null));
  return out;
}

function expectTag(item: Element | undefined, tag: number): Element {
  if (!item || item.tag !== tag) throw refused('its signature is not a CMS SignedData');
  return item;
}

function refused(why: string): BundleCheckError {
  return new BundleCheckError('payload', `the bundle cannot be checked: ${why}`);
}
