import type { NodeRun, NodeRunStatus, RunResult, RunTrigger } from '@athena/contract';

/**
 * How each of the four results looks (requirements.md, Entities: succeeded, failed, empty_output,
 * has_error). The texts and their explanations are `workflows.result.<result>` and
 * `workflows.resultHelp.<result>` in the locale files.
 */
export const RESULT_LOOK: Record<RunResult, { color: string; icon: 'ok' | 'fail' | 'empty' | 'warn' }> = {
  succeeded: { color: 'success', icon: 'ok' },
  has_error: { color: 'warning', icon: 'warn' },
  empty_output: { color: 'default', icon: 'empty' },
  failed: { color: 'error', icon: 'fail' },
};

export const NODE_STATUS_COLOR: Record<NodeRunStatus, string> = {
  running: 'processing',
  succeeded: 'success',
  handled: 'warning',
  failed: 'error',
  skipped: 'default',
};

export const TRIGGER_KEYS: Record<RunTrigger, `workflows.trigger.${RunTrigger}`> = {
  editor: 'workflows.trigger.editor',
  single_node: 'workflows.trigger.single_node',
  api: 'workflows.trigger.api',
  webhook: 'workflows.trigger.webhook',
  schedule: 'workflows.trigger.schedule',
  sub_workflow: 'workflows.trigger.sub_workflow',
};

/** "350 ms", "1.2 s", "2 min 5 s": short enough for a table cell, exact enough to compare runs. */
export function formatDuration(ms: number): string {
  if (!Number.isFinite(ms) || ms < 0) return '–';
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(ms < 10_000 ? 2 : 1)} s`;
  const minutes = Math.floor(ms / 60_000);
  const seconds = Math.round((ms % 60_000) / 1000);
  return seconds ? `${minutes} min ${seconds} s` : `${minutes} min`;
}

/** One node execution, with the rounds of its body when it is an iteration or a loop. */
export interface NodeEntry {
  node: NodeRun;
  rounds: { index: number; entries: NodeEntry[] }[];
}

/**
 * The run's executions as a tree, in the order they ran: a node inside an iteration or loop runs
 * once per item, so its executions sit under the container, one round per index. An execution
 * whose container is missing (a payload the server cut) stays at the top rather than vanish.
 */
export function groupNodeRuns(nodes: readonly NodeRun[]): NodeEntry[] {
  const build = (members: readonly NodeRun[], depth: number): NodeEntry[] => {
    const here = members.filter((node) => node.scope.path.length === depth);
    const deeper = members.filter((node) => node.scope.path.length > depth);
    const claimed = new Set<NodeRun>();
    const entries = here.map((node): NodeEntry => {
      const inside = deeper.filter((child) => child.scope.path[depth]?.node_id === node.node_id);
      for (const child of inside) claimed.add(child);
      const byIndex = new Map<number, NodeRun[]>();
      for (const child of inside) {
        const index = child.scope.path[depth]?.index ?? 0;
        byIndex.set(index, [...(byIndex.get(index) ?? []), child]);
      }
      const rounds = [...byIndex.entries()]
        .sort(([a], [b]) => a - b)
        .map(([index, members]) => ({ index, entries: build(members, depth + 1) }));
      return { node, rounds };
    });
    const orphans = deeper.filter((node) => !claimed.has(node)).map((node) => ({ node, rounds: [] }));
    return [...entries, ...orphans];
  };
  return build(nodes, 0);
}
