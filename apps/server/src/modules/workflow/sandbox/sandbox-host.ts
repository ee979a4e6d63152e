// The sandbox process: started by the server (sandbox-process.ts) with an empty environment, under
// Node's permission model (reads only its own bundles and node_modules, writes nothing, starts no
// program), and when the server runs as root as `nobody` in a network namespace of its own. Its
// main thread relays runs from the server's IPC channel to its worker threads (thread-sandbox.ts).
// Bundled as workflow-sandbox-host.mjs (sandbox-bundle.ts).
// First: closes Node's ways out before anything else loads.
import './host-escapes.ts';
import type { FromSandboxProcess, SandboxOptions, ToSandboxProcess } from './protocol.ts';
import { createThreadSandbox } from './thread-sandbox.ts';

/**
 * With no run in flight and no thread alive this long, the process says so; the server then ends it
 * unless a run is on its way (the server decides, so no run is sent to a process that is leaving).
 */
const IDLE_EXIT_MS = 60_000;

const send = process.send?.bind(process);
if (!send) throw new Error('the sandbox process is started by the server, with an IPC channel');
const post = (message: FromSandboxProcess) => send(message);

const options = JSON.parse(process.argv[2] ?? '') as SandboxOptions;
const sandbox = createThreadSandbox(options);
const running = new Map<number, AbortController>();

process.on('message', (message: ToSandboxProcess) => {
  if (message.type === 'abort') {
    running.get(message.id)?.abort();
    return;
  }
  const controller = new AbortController();
  running.set(message.id, controller);
  void sandbox.run(message.request, controller.signal).then((outcome) => {
    running.delete(message.id);
    post({ type: 'done', id: message.id, outcome, threads: sandbox.threads });
  });
});

// The server went away (or closed the channel): nothing is left to serve.
process.on('disconnect', () => {
  void sandbox.close().finally(() => process.exit(0));
});

let idleSince = Date.now();
setInterval(() => {
  const { quickjs, python } = sandbox.threads;
  if (running.size > 0 || quickjs + python > 0) idleSince = Date.now();
  else if (Date.now() - idleSince >= IDLE_EXIT_MS) post({ type: 'idle' });
}, 5_000).unref();

post({ type: 'ready' });
