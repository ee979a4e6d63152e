import { type WorkflowGroup, type WorkflowSummary, workflowRoutes } from '@athena/contract';
import { App } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useApiMutation } from '../../shared/hooks/use-api-mutation.ts';
import { refreshWorkflowLists } from './workflow-queries.ts';

/** Saves text as a file the browser downloads, named as the server said. */
export function downloadText(fileName: string, content: string, type = 'application/json') {
  const url = URL.createObjectURL(new Blob([content], { type }));
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  document.body.append(link);
  link.click();
  link.remove();
  // Some browsers read the object after click() returns.
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/**
 * The list's one-click writes (lock, effective, copy, export) and the deletes with their
 * confirmation. A refusal (a workflow locked meanwhile, say) shows the server's message by itself.
 */
export function useWorkflowCommands(spaceId: string | null) {
  const { t } = useTranslation();
  const { message, modal } = App.useApp();
  const [busyId, setBusyId] = useState<string | null>(null);
  const lock = useApiMutation(workflowRoutes.lock);
  const effective = useApiMutation(workflowRoutes.effectiveSet);
  const duplicate = useApiMutation(workflowRoutes.duplicate);
  const exportFile = useApiMutation(workflowRoutes.export);
  const deleteWorkflow = useApiMutation(workflowRoutes.delete);
  const deleteGroup = useApiMutation(workflowRoutes.groupDelete);

  const busy = async <T>(id: string, work: () => Promise<T>): Promise<T | null> => {
    setBusyId(id);
    try {
      return await work();
    } catch {
      // The failure's notice is already showing.
      return null;
    } finally {
      setBusyId(null);
    }
  };

  return {
    busyId,
    setLocked: (workflow: WorkflowSummary, locked: boolean) =>
      busy(workflow.id, async () => {
        await lock.mutateAsync({ id: workflow.id, locked });
        void message.success(t(locked ? 'workflows.done.locked' : 'workflows.done.unlocked', { name: workflow.name }));
        await refreshWorkflowLists(spaceId);
      }),
    setEffective: (workflow: WorkflowSummary, on: boolean) =>
      busy(workflow.id, async () => {
        await effective.mutateAsync({ id: workflow.id, effective: on });
        void message.success(
          t(on ? 'workflows.done.effective' : 'workflows.done.notEffective', { name: workflow.name }),
        );
        await refreshWorkflowLists(spaceId);
      }),
    /** Resolves with the copy, which the caller may open. */
    duplicate: (workflow: WorkflowSummary) =>
      busy(workflow.id, async () => {
        const copy = await duplicate.mutateAsync({ id: workflow.id });
        void message.success(t('workflows.done.duplicated', { name: copy.name }));
        await refreshWorkflowLists(spaceId);
        return copy;
      }),
    exportFile: (workflow: WorkflowSummary) =>
      busy(workflow.id, async () => {
        const file = await exportFile.mutateAsync({ id: workflow.id });
        downloadText(file.file_name, file.content);
        void message.success(t('workflows.done.exported', { file: file.file_name }));
      }),
    /** Asks first; resolves true once the workflow is gone. */
    remove: (workflow: WorkflowSummary) =>
      new Promise<boolean>((resolve) => {
        modal.confirm({
          title: t('workflows.deleteConfirm.title', { name: workflow.name }),
          content: t('workflows.deleteConfirm.text'),
          okText: t('workflows.deleteConfirm.ok'),
          okButtonProps: { danger: true, 'data-testid': 'workflow-delete-confirm' },
          cancelText: t('workflows.form.cancel'),
          onCancel: () => resolve(false),
          onOk: async () => {
            const done = await busy(workflow.id, async () => {
              await deleteWorkflow.mutateAsync({ id: workflow.id });
              void message.success(t('workflows.done.deleted', { name: workflow.name }));
              await refreshWorkflowLists(spaceId);
              return true;
            });
            resolve(done === true);
          },
        });
      }),
    /** Asks first; resolves true once the group is gone (its workflows become ungrouped). */
    removeGroup: (group: WorkflowGroup) =>
      new Promise<boolean>((resolve) => {
        modal.confirm({
          title: t('workflows.groups.deleteTitle', { name: group.name }),
          content: t('workflows.groups.deleteText', { count: group.workflow_count }),
          okText: t('workflows.groups.deleteOk'),
          okButtonProps: { danger: true, 'data-testid': 'workflow-group-delete-confirm' },
          cancelText: t('workflows.form.cancel'),
          onCancel: () => resolve(false),
          onOk: async () => {
            try {
              await deleteGroup.mutateAsync({ id: group.id });
              void message.success(t('workflows.groups.deleted', { name: group.name }));
              await refreshWorkflowLists(spaceId);
              resolve(true);
            } catch {
              resolve(false);
            }
          },
        });
      }),
  };
}
