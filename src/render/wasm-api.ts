// The few members of the WebAssembly JS API the renderer's own wasm modules use (the project's lib settings carry no
// WebAssembly types).

/** A WebAssembly.Memory: its current buffer. */
export interface WasmMemory {
  readonly buffer: ArrayBuffer;
}

/** A WebAssembly.Memory this code made, which it may grow (by 64 KiB pages). */
export interface GrowableWasmMemory extends WasmMemory {
  grow(pages: number): number;
}

/** WebAssembly's validate, Module, Instance and Memory. */
export interface WasmApi {
  validate(bytes: Uint8Array): boolean;
  Module: new (bytes: Uint8Array) => object;
  Instance: new (module: object, imports: object) => { exports: Record<string, unknown> };
  Memory: new (descriptor: { initial: number }) => GrowableWasmMemory;
}

/** This runtime's WebAssembly. */
export const WASM = (globalThis as unknown as { WebAssembly: WasmApi }).WebAssembly;
