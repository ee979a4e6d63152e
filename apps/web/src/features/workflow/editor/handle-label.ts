import type { WorkflowNode } from '@athena/contract';
import type { TFunction } from 'i18next';

/** What a source handle is called next to it: out, a case, a class, the fail branch (editor and template preview). */
export function handleLabel(node: WorkflowNode, handle: string, t: TFunction): string {
  if (handle === 'out') return t('workflowEditor.handles.out');
  if (handle === 'fail') return t('workflowEditor.handles.fail');
  if (handle === 'else') return t('workflowEditor.handles.else');
  if (node.type === 'if_else') {
    const index = node.data.cases.findIndex((item) => item.id === handle);
    return index === 0 ? t('workflowEditor.handles.if') : t('workflowEditor.handles.elif', { n: index + 1 });
  }
  if (node.type === 'classifier') {
    const index = node.data.classes.findIndex((item) => item.id === handle);
    return node.data.classes[index]?.name || t('workflowEditor.handles.class', { n: index + 1 });
  }
  return '';
}
