/**
 * WebAssembly memory lives outside V8's heap, so a worker's heap limit does not bound it, and
 * QuickJS's own memory limit undercounts (this build cannot measure its allocations: 1 935 arrays
 * of 100 000 numbers, 1.6 GB, went through a 64 MB limit). Emscripten grows its heap with
 * Memory.grow and takes a throw as "no memory" (malloc fails, the interpreter raises its
 * out-of-memory error), so growth past a cap is refused here, for every WebAssembly memory of the
 * thread that installs it.
 */
interface GrowableMemory {
  buffer: ArrayBuffer;
  grow(delta: number): number;
}

const PAGE_BYTES = 65_536;

export function capWasmMemory() {
  let capBytes = Number.POSITIVE_INFINITY;
  let initialBytes: number | null = null;
  // The server's TypeScript settings carry no WebAssembly types; this is the one method used.
  const memory = (globalThis as unknown as { WebAssembly: { Memory: { prototype: GrowableMemory } } }).WebAssembly
    .Memory.prototype;
  const grow = memory.grow;
  memory.grow = function (this: GrowableMemory, delta: number) {
    initialBytes ??= this.buffer.byteLength;
    if (this.buffer.byteLength + delta * PAGE_BYTES > capBytes) throw new RangeError('sandbox memory limit');
    return grow.call(this, delta);
  };
  return {
    /** Refuses growth past this many bytes in all. */
    limit(bytes: number) {
      capBytes = bytes;
    },
    /** The size before the first growth (null while it never grew). */
    get initialBytes() {
      return initialBytes;
    },
  };
}
