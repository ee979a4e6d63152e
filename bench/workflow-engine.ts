// The workflow engine's own cost, with no I/O: how long the scheduler takes per node (readiness,
// events, the variable pool, references), and how long validateGraph takes on the largest graph a
// document may hold. Target (issue 13): at most 50 µs per node. `npx tsx bench/workflow-engine.ts`
// (`BENCH_NODES` 1000, `BENCH_RUNS` 10).
import { WORKFLOW_LIMITS, type WorkflowGraph } from '@athena/contract';
import {
  type EngineEvent,
  type Executors,
  runWorkflow,
  type SystemVariables,
  validateGraph,
} from '../packages/workflow-engine/src/index.ts';
import { answer, code, end, graphOf, llm, start } from '../packages/workflow-engine/src/test-graphs.ts';

const NODES = Number(process.env.BENCH_NODES ?? 1_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 10);

const system: SystemVariables = {
  query: 'q',
  files: [],
  user_id: 'u',
  run_id: 'r',
  workflow_id: 'w',
  conversation_id: null,
};
const executors: Executors = {
  code: async ({ read }) => ({ outputs: { result: read(['s', 'q']) } }),
};
const settings = { max_steps: WORKFLOW_LIMITS.maxStepsCeiling };

/** start → n nodes in a row → end; `kind` answer (built in, renders a reference) or code (an executor). */
function chain(n: number, kind: 'answer' | 'code'): WorkflowGraph {
  const nodes = [start('s', [{ name: 'q', type: 'text' }])];
  const edges: Array<[string, string]> = [];
  let previous = 's';
  for (let i = 0; i < n; i++) {
    nodes.push(kind === 'answer' ? answer(`n${i}`, '{{#s.q#}}') : code(`n${i}`));
    edges.push([previous, `n${i}`]);
    previous = `n${i}`;
  }
  nodes.push(end('e', [{ name: 'out', selector: ['s', 'q'] }]));
  edges.push([previous, 'e']);
  return graphOf(nodes, edges, { settings });
}

/** start → n nodes side by side → one join → end. */
function fanOut(n: number, kind: 'answer' | 'code'): WorkflowGraph {
  const nodes = [start('s', [{ name: 'q', type: 'text' }]), answer('join', 'done')];
  const edges: Array<[string, string]> = [];
  for (let i = 0; i < n; i++) {
    nodes.push(kind === 'answer' ? answer(`n${i}`, '{{#s.q#}}') : code(`n${i}`));
    edges.push(['s', `n${i}`], [`n${i}`, 'join']);
  }
  nodes.push(end('e', [{ name: 'out', selector: ['s', 'q'] }]));
  edges.push(['join', 'e']);
  return graphOf(nodes, edges, { settings });
}

async function perNode(label: string, graph: WorkflowGraph): Promise<string[]> {
  // Events are built and delivered, as in a real run, but nobody keeps them.
  const onEvent = (_event: EngineEvent) => {};
  const once = async () => {
    const summary = await runWorkflow({ graph, inputs: { q: 'hello' }, system, executors, onEvent });
    if (summary.result !== 'succeeded')
      throw new Error(`${label}: ${summary.result} ${JSON.stringify(summary.failure)}`);
    return summary.steps;
  };
  for (let i = 0; i < 3; i++) await once();
  const times: number[] = [];
  let steps = 0;
  for (let i = 0; i < RUNS; i++) {
    const began = performance.now();
    steps = await once();
    times.push(performance.now() - began);
  }
  times.sort((a, b) => a - b);
  const median = times[Math.floor(times.length / 2)]!;
  const best = times[0]!;
  return [
    label,
    String(steps),
    `${median.toFixed(1)} ms`,
    `${((median * 1000) / steps).toFixed(1)} µs`,
    `${((best * 1000) / steps).toFixed(1)} µs`,
  ];
}

function validation(size: number): string[] {
  const nodes = [start('s', [{ name: 'q', type: 'text' }])];
  const edges: Array<[string, string]> = [];
  let previous = 's';
  for (let i = 1; i < size - 1; i++) {
    const reads = previous === 's' ? '{{#s.q#}}' : `{{#s.q#}} {{#${previous}.text#}}`;
    nodes.push(llm(`n${i}`, reads));
    edges.push([previous, `n${i}`]);
    previous = `n${i}`;
  }
  nodes.push(end('e', [{ name: 'out', selector: [previous, 'text'] }]));
  edges.push([previous, 'e']);
  const graph = graphOf(nodes, edges);
  if (validateGraph(graph).length > 0) throw new Error('the validation graph should be valid');
  for (let i = 0; i < 5; i++) validateGraph(graph);
  const times: number[] = [];
  for (let i = 0; i < 20; i++) {
    const began = performance.now();
    validateGraph(graph);
    times.push(performance.now() - began);
  }
  times.sort((a, b) => a - b);
  return [
    `${size}-node chain, each node reading start and its predecessor`,
    `${times[10]!.toFixed(2)} ms`,
    `${times[0]!.toFixed(2)} ms`,
  ];
}

const table = (header: string[], rows: string[][]) => {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i]!.length)));
  const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i]!)).join(' | ')} |`;
  console.log([line(header), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)].join('\n'));
};

const rows = [
  await perNode(`chain of ${NODES} answer nodes (built in)`, chain(NODES, 'answer')),
  await perNode(`chain of ${NODES} code nodes (trivial executor)`, chain(NODES, 'code')),
  await perNode(`fan-out of ${NODES} answer nodes + join`, fanOut(NODES, 'answer')),
  await perNode(`fan-out of ${NODES} code nodes + join`, fanOut(NODES, 'code')),
];
console.log(
  `\nEngine overhead per node (median of ${RUNS} runs after 3 warm-ups; validation included; target ≤ 50 µs)\n`,
);
table(['graph', 'steps', 'run (median)', 'per node (median)', 'per node (best)'], rows);
console.log('\nvalidateGraph (median and best of 20)\n');
table(['graph', 'median', 'best'], [validation(WORKFLOW_LIMITS.maxNodes)]);
