// The pieces a transport writes: `data` repeated `times` over, cut at `chunk` bytes, never copied or held `times` over.

/** Yields views of `data` of at most `chunk` bytes, `times` passes over it; nothing is copied. */
export function* pieces(data: Uint8Array, times: number, chunk: number): Generator<Uint8Array> {
  for (let pass = 0; pass < times; pass += 1) {
    for (let offset = 0; offset < data.length; offset += chunk) yield data.subarray(offset, Math.min(offset + chunk, data.length));
  }
}
