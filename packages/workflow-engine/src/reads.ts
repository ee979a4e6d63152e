import type { Selector, WorkflowNode } from '@athena/contract';
import { referencesIn } from './references.ts';

/**
 * Where a selector a node reads must point:
 * - `upstream`: a value offered to the node (offeredVariables);
 * - `own`: the node's own item (a list operator's filter) or variables (a loop's break condition);
 * - `body`: an output of a node inside the node's own body (an iteration's result);
 * - `upstream_or_body`: either (a loop's break condition may test what its last round produced).
 */
export type ReadScope = 'upstream' | 'own' | 'body' | 'upstream_or_body';

export interface NodeRead {
  selector: Selector;
  scope: ReadScope;
}

type Condition = { selector: Selector; value: string };

function fromTexts(texts: Array<string | undefined>, scope: ReadScope, into: NodeRead[]): void {
  for (const text of texts) {
    if (text) for (const selector of referencesIn(text)) into.push({ selector, scope });
  }
}

function fromConditions(conditions: Condition[], into: NodeRead[], ownId: string | null, other: ReadScope): void {
  for (const condition of conditions) {
    into.push({ selector: condition.selector, scope: condition.selector[0] === ownId ? 'own' : other });
    fromTexts([condition.value], other, into);
  }
}

/** Every selector a node reads, from its selector fields and from the references in its texts. */
export function readsOf(node: WorkflowNode): NodeRead[] {
  const reads: NodeRead[] = [];
  const select = (selector: Selector, scope: ReadScope = 'upstream') => reads.push({ selector, scope });
  switch (node.type) {
    case 'start':
    case 'unsupported':
      break;
    case 'end':
      for (const output of node.data.outputs) select(output.selector);
      break;
    case 'answer':
      fromTexts([node.data.text], 'upstream', reads);
      break;
    case 'llm':
      fromTexts([node.data.system_prompt, node.data.user_prompt], 'upstream', reads);
      break;
    case 'knowledge':
      select(node.data.query);
      break;
    case 'classifier':
    case 'extractor':
      select(node.data.query);
      fromTexts([node.data.instruction], 'upstream', reads);
      break;
    case 'if_else':
      for (const branch of node.data.cases) fromConditions(branch.conditions, reads, null, 'upstream');
      break;
    case 'template':
    case 'code':
    case 'sub_workflow': {
      const bound = node.type === 'sub_workflow' ? node.data.inputs : node.data.variables;
      for (const variable of bound) select(variable.selector);
      break;
    }
    case 'http': {
      const { url, headers, params, body, auth } = node.data;
      const authTexts =
        auth.type === 'bearer'
          ? [auth.token]
          : auth.type === 'basic'
            ? [auth.username, auth.password]
            : auth.type === 'header'
              ? [auth.value]
              : [];
      fromTexts(
        [url, ...headers.map((h) => h.value), ...params.map((p) => p.value), body.data, ...authTexts],
        'upstream',
        reads,
      );
      break;
    }
    case 'mcp_tool':
      fromTexts(
        node.data.arguments.map((argument) => argument.value),
        'upstream',
        reads,
      );
      break;
    case 'aggregator':
      for (const selector of node.data.selectors) select(selector);
      break;
    case 'assigner':
      for (const item of node.data.items) {
        select(item.target);
        if (item.source) select(item.source);
        else fromTexts([item.constant], 'upstream', reads);
      }
      break;
    case 'list_operator':
      select(node.data.list);
      if (node.data.filter) fromConditions(node.data.filter.conditions, reads, node.id, 'upstream');
      break;
    case 'iteration':
      select(node.data.list);
      select(node.data.output, 'body');
      break;
    case 'loop':
      fromTexts(
        node.data.variables.map((variable) => variable.initial),
        'upstream',
        reads,
      );
      fromConditions(node.data.break_when.conditions, reads, node.id, 'upstream_or_body');
      break;
    case 'agent':
      fromTexts([node.data.query], 'upstream', reads);
      break;
  }
  return reads;
}
