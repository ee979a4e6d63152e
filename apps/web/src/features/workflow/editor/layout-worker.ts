import ELK, { type ElkNode } from 'elkjs/lib/elk-api.js';
import ElkWorker from 'elkjs/lib/elk-worker.min.js?worker';

// ELK runs in a web worker, so laying out a thousand nodes never freezes the canvas. One worker
// serves the page; it starts on the first layout.
let elk: InstanceType<typeof ELK> | null = null;

export function layoutInWorker(graph: ElkNode): Promise<ElkNode> {
  elk ??= new ELK({ workerFactory: () => new ElkWorker() });
  return elk.layout(graph);
}
