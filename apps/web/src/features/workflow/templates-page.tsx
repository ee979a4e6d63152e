import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { type WorkflowTemplate, workflowRoutes } from '@athena/contract';
import { App, Button, Card, Empty, Flex } from 'antd';
import { useTranslation } from 'react-i18next';
import { useGo } from '../../lib/navigation.ts';
import { useApiMutation } from '../../shared/hooks/use-api-mutation.ts';
import { useSpaceId } from '../../shared/hooks/use-current-space.ts';
import { useModalSession } from '../../shared/hooks/use-modal-session.ts';
import { PageHeader } from '../../shared/ui/page-header.tsx';
import { TemplateBrowser } from './template-browser.tsx';
import { TemplateUseModal } from './template-use-modal.tsx';
import { useWorkflowGroupPermissions } from './workflow-permissions.ts';
import { refreshWorkflowLists, useWorkflowGroups, useWorkflowTemplates } from './workflow-queries.ts';

/**
 * /workflow-templates: the built-in and the team's templates, each drawn small. A card opens the
 * template's own dialog (its graph, and a name to create a workflow from it); a team template can
 * be deleted.
 */
export function WorkflowTemplatesPage() {
  const { t } = useTranslation();
  const go = useGo();
  const { message, modal } = App.useApp();
  const spaceId = useSpaceId();
  const templates = useWorkflowTemplates(spaceId);
  const groups = useWorkflowGroups(spaceId);
  const may = useWorkflowGroupPermissions();
  const deleteTemplate = useApiMutation(workflowRoutes.templateDelete);
  const use = useModalSession<WorkflowTemplate | null>(null);

  const remove = (template: WorkflowTemplate) =>
    modal.confirm({
      title: t('workflows.templates.deleteTitle', { name: template.name }),
      content: t('workflows.templates.deleteText'),
      okText: t('workflows.templates.deleteOk'),
      okButtonProps: { danger: true, 'data-testid': 'workflow-template-delete-confirm' },
      cancelText: t('workflows.form.cancel'),
      onOk: async () => {
        try {
          await deleteTemplate.mutateAsync({ id: template.id });
          void message.success(t('workflows.templates.deleted', { name: template.name }));
          await refreshWorkflowLists(spaceId);
        } catch {
          // The failure's notice is already showing.
        }
      },
    });

  return (
    <Flex vertical gap={16} data-testid="page-workflowTemplates">
      <PageHeader title={t('routes.workflowTemplates')} subtitle={t('workflows.templates.intro')} />
      <Card>
        {spaceId ? (
          <TemplateBrowser
            query={templates}
            minCardWidth={280}
            testId="workflow-templates"
            thumbnails
            onSelect={use.show}
            actions={(template) => (
              <>
                {template.can_delete ? (
                  <Button
                    size="small"
                    danger
                    icon={<DeleteOutlined />}
                    onClick={() => remove(template)}
                    data-testid="workflow-template-delete"
                  >
                    {t('workflows.templates.delete')}
                  </Button>
                ) : null}
                {may.create ? (
                  <Button
                    size="small"
                    type="primary"
                    icon={<PlusOutlined />}
                    onClick={() => use.show(template)}
                    data-testid="workflow-template-use"
                  >
                    {t('workflows.templates.use')}
                  </Button>
                ) : null}
              </>
            )}
          />
        ) : (
          <Empty description={t('workflows.noSpace')} />
        )}
      </Card>
      {spaceId && use.value ? (
        <TemplateUseModal
          key={`use-${use.key}`}
          open={use.open}
          template={use.value}
          spaceId={spaceId}
          groups={groups.data?.items ?? []}
          canCreate={may.create}
          onClose={use.close}
          onCreated={(id) => go('workflowEditor', { params: { workflowId: id } })}
        />
      ) : null}
    </Flex>
  );
}
