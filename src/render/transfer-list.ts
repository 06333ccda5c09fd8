// What a postMessage to or from a render worker may move instead of copying: a view's ArrayBuffer, when the view is all of it.

/**
 * `[bytes.buffer]` when `bytes` spans its whole ArrayBuffer, else `[]` (postMessage then copies the bytes): a small Buffer
 * is a slice of Node's shared Buffer pool, which must not be moved, and Node 21 and later refuse it ("Cannot transfer
 * object of unsupported type") where Node 20 copied it silently.
 */
export function transferListOf(bytes: Uint8Array): ArrayBuffer[] {
  const buffer = bytes.buffer;
  return buffer instanceof ArrayBuffer && bytes.byteOffset === 0 && bytes.byteLength === buffer.byteLength ? [buffer] : [];
}
