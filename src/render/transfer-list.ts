// What a postMessage to or from a render worker carries: bytes in an ArrayBuffer of their own, moved rather than copied.

/** Bytes ready to post, and the transfer list that moves them. */
export interface Movable {
  bytes: Uint8Array;
  transfer: ArrayBuffer[];
}

/**
 * `bytes` moved when they are all of their ArrayBuffer (the sender's view is detached); otherwise a copy of exactly
 * those bytes, moved. Never the view itself: postMessage copies a view's whole ArrayBuffer, and a document sliced out of
 * an IPP request, or a small Buffer (a slice of Node's shared 8 KiB pool), took every byte around it along. Node 21 and
 * later refuse to move a pool slice ("Cannot transfer object of unsupported type").
 */
export function movable(bytes: Uint8Array): Movable {
  const buffer = bytes.buffer;
  if (buffer instanceof ArrayBuffer && bytes.byteOffset === 0 && bytes.byteLength === buffer.byteLength) return { bytes, transfer: [buffer] };
  const copy = new Uint8Array(bytes);
  return { bytes: copy, transfer: [copy.buffer] };
}
