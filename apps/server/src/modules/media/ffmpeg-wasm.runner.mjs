// ffprobe or ffmpeg compiled to WebAssembly (@ffmpeg/core), run as a process of its own:
//   node <permission flags> ffmpeg-wasm.runner.mjs <core.js> <core.wasm> ffprobe|ffmpeg <args…>
// media-tools.ts starts it under Node's permission model (it may read itself and the two files of
// the core, nothing else) and on the floor of tool-floor.ts. A bug in a decoder then corrupts the
// WebAssembly module's own memory, which holds nothing but the file being read; the module reaches
// the outside only through this script, which reads one thing: the input handed over as descriptor 3.
//
// - The input is mounted read-only at /in/input (Emscripten's WORKERFS) and read a slice at a time
//   as ffmpeg asks: a video of gigabytes is never copied into memory.
// - What ffmpeg writes to `pipe:1`, and ffprobe's report, go to an in-memory file, then to stdout
//   as bytes (the module's own stdout is a text console).
// - `-version` loads the module and runs `ffmpeg -version`: the check that this way works here.
//
// Plain JavaScript, not TypeScript: it runs as it is, from the source tree and from the build.
// @ffmpeg/core is built for a browser's worker; the globals set below are all it needs from one.
import fs from 'node:fs';
import { createRequire } from 'node:module';

const INPUT_FD = 3;
const INPUT_PATH = '/in/input';
const OUTPUT_PATH = '/out';

/** What WORKERFS asks of a File: its size and slices; FileReaderSync below reads their bytes. */
function sliceOf(from, to) {
  return {
    size: to - from,
    slice: (start = 0, end = to - from) => sliceOf(from + start, from + Math.min(end, to - from)),
    bytes() {
      const buffer = Buffer.alloc(to - from);
      let done = 0;
      while (done < buffer.length) {
        const read = fs.readSync(INPUT_FD, buffer, done, buffer.length - done, from + done);
        if (read === 0) break;
        done += read;
      }
      return buffer.buffer.slice(buffer.byteOffset, buffer.byteOffset + done);
    },
  };
}

function pretendWorker() {
  globalThis.self = globalThis;
  globalThis.location = { href: 'file:///' };
  globalThis.FileReaderSync = class {
    readAsArrayBuffer(file) {
      return file.bytes();
    }
  };
}

async function main() {
  const [coreJs, coreWasm, tool, ...args] = process.argv.slice(2);
  if (tool !== 'ffmpeg' && tool !== 'ffprobe') throw new Error(`unknown tool ${tool}`);
  pretendWorker();
  const createCore = createRequire(import.meta.url)(coreJs);
  const core = await createCore({
    wasmBinary: fs.readFileSync(coreWasm),
    print: (line) => process.stderr.write(`${line}\n`),
    printErr: (line) => process.stderr.write(`${line}\n`),
  });
  if (args[0] === '-version') return core.exec('-version') === 0 ? 0 : 1;
  if (args.includes(INPUT_PATH)) {
    const data = sliceOf(0, fs.fstatSync(INPUT_FD).size);
    core.FS.mkdir('/in');
    core.FS.mount(core.FS.filesystems.WORKERFS, { blobs: [{ name: 'input', data }] }, '/in');
  }
  if (tool === 'ffprobe') {
    // Its printout stays in the module's stdio buffers; `-o` sends it to a file instead. This
    // build's ffprobe answers -1 whatever happened and prints no error: a report without the
    // `format` section that -show_format asks for means the input could not be read.
    core.ffprobe(...args, '-o', OUTPUT_PATH);
    const report = core.FS.analyzePath(OUTPUT_PATH).exists ? core.FS.readFile(OUTPUT_PATH) : null;
    if (!report || !JSON.parse(Buffer.from(report).toString('utf8') || '{}').format) {
      process.stderr.write('ffprobe could not read the input\n');
      return 1;
    }
    process.stdout.write(report);
    return 0;
  }
  const toPipe = args.indexOf('pipe:1');
  const status = core.exec(...args.map((arg, i) => (i === toPipe ? OUTPUT_PATH : arg)));
  if (status !== 0) return status || 1;
  if (toPipe >= 0) process.stdout.write(core.FS.readFile(OUTPUT_PATH));
  return 0;
}

main().then(
  (status) => {
    process.exitCode = status;
  },
  (error) => {
    process.stderr.write(`${error.message}\n`);
    process.exitCode = 1;
  },
);
