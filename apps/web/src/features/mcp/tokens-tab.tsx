import { PlusOutlined, StopOutlined } from '@ant-design/icons';
import { type McpToken, mcpRoutes, type RouteData } from '@athena/contract';
import { Alert, App, Button, Flex, Input, Modal, Popconfirm, Table, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useApiMutation } from '../../shared/hooks/use-api-mutation.ts';
import { ListLoadError } from '../../shared/ui/list-page-parts.tsx';
import { RelativeTime } from '../../shared/ui/relative-time.tsx';
import { CopyButton } from '../agents/copy-button.tsx';
import { type FreshToken, tokenStatus } from './mcp-logic.ts';
import { useMcpTokens } from './mcp-queries.ts';
import { TokenCreateModal } from './token-create-modal.tsx';

type Created = RouteData<typeof mcpRoutes.tokenCreate>;

const STATUS_COLOR = { active: 'success', revoked: 'default', expired: 'warning' } as const;

interface Props {
  spaceId: string | null;
  canManage: boolean;
  onChanged: () => void;
  /** A token just created: the page offers it to the configuration snippets. */
  onCreated: (token: FreshToken) => void;
}

/** The team's access tokens: list, create (the secret shown once) and revoke. */
export function TokensTab({ spaceId, canManage, onChanged, onCreated }: Props) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const tokens = useMcpTokens(spaceId);
  const revoke = useApiMutation(mcpRoutes.tokenRevoke);
  const [creating, setCreating] = useState(false);
  const [created, setCreated] = useState<Created | null>(null);
  const [showCreated, setShowCreated] = useState(false);

  const doRevoke = async (token: McpToken) => {
    try {
      await revoke.mutateAsync({ id: token.id });
      void message.success(t('mcp.tokens.revoked', { name: token.name }));
      onChanged();
    } catch {
      // The failure's notice is already showing.
    }
  };

  if (tokens.isError && !tokens.data) {
    return (
      <ListLoadError
        title={t('mcp.tokens.loadError')}
        error={tokens.error}
        onRetry={() => void tokens.refetch()}
        testId="mcp-tokens-error"
      />
    );
  }

  return (
    <Flex vertical gap={12} data-testid="mcp-tokens">
      <Flex justify="space-between" align="center" gap={12} wrap>
        <Typography.Text type="secondary">{t('mcp.tokens.intro')}</Typography.Text>
        {canManage ? (
          <Button
            type="primary"
            icon={<PlusOutlined />}
            onClick={() => setCreating(true)}
            data-testid="mcp-token-create"
          >
            {t('mcp.tokens.create')}
          </Button>
        ) : null}
      </Flex>
      <Table<McpToken>
        rowKey="id"
        size="middle"
        loading={tokens.isPending}
        dataSource={tokens.data?.items ?? []}
        pagination={false}
        scroll={{ x: 880 }}
        locale={{ emptyText: t(canManage ? 'mcp.tokens.empty' : 'mcp.tokens.emptyMember') }}
        onRow={(token) =>
          ({
            'data-testid': `mcp-token-row-${token.name}`,
            style: token.active ? undefined : { opacity: 0.6 },
          }) as React.HTMLAttributes<HTMLElement>
        }
        columns={[
          {
            title: t('mcp.tokens.name'),
            dataIndex: 'name',
            render: (name: string, token) => (
              <Flex vertical gap={2}>
                <Typography.Text strong>{name}</Typography.Text>
                <Typography.Text code style={{ fontSize: 12, width: 'fit-content' }}>
                  {token.prefix}…
                </Typography.Text>
              </Flex>
            ),
          },
          {
            title: t('mcp.tokens.status'),
            key: 'status',
            width: 100,
            render: (_: unknown, token) => {
              const status = tokenStatus(token);
              return (
                <Tag color={STATUS_COLOR[status]} data-testid="mcp-token-status">
                  {t(`mcp.tokens.statuses.${status}`)}
                </Tag>
              );
            },
          },
          {
            title: t('mcp.tokens.createdBy'),
            key: 'created_by',
            render: (_: unknown, token) => token.created_by?.name ?? t('mcp.tokens.someone'),
          },
          {
            title: t('mcp.tokens.created'),
            dataIndex: 'created_at',
            render: (at: string) => <RelativeTime iso={at} />,
          },
          {
            title: t('mcp.tokens.expires'),
            dataIndex: 'expires_at',
            render: (at: string | null, token) =>
              token.revoked ? '—' : at ? <RelativeTime iso={at} future /> : t('mcp.tokens.never'),
          },
          {
            title: t('mcp.tokens.lastUsed'),
            dataIndex: 'last_used_at',
            render: (at: string | null) =>
              at ? (
                <RelativeTime iso={at} />
              ) : (
                <Typography.Text type="secondary">{t('mcp.tokens.notUsed')}</Typography.Text>
              ),
          },
          ...(canManage
            ? [
                {
                  title: '',
                  key: 'actions',
                  width: 100,
                  render: (_: unknown, token: McpToken) =>
                    token.revoked ? null : (
                      <Popconfirm
                        title={t('mcp.tokens.revokeTitle', { name: token.name })}
                        description={t('mcp.tokens.revokeText')}
                        okText={t('mcp.tokens.revoke')}
                        okButtonProps={{ danger: true, 'data-testid': 'mcp-token-revoke-ok' }}
                        cancelText={t('mcp.cancel')}
                        onConfirm={() => doRevoke(token)}
                      >
                        <Button size="small" danger icon={<StopOutlined />} data-testid="mcp-token-revoke">
                          {t('mcp.tokens.revoke')}
                        </Button>
                      </Popconfirm>
                    ),
                },
              ]
            : []),
        ]}
      />

      <TokenCreateModal
        open={creating}
        onClose={() => setCreating(false)}
        onCreated={(token) => {
          setCreating(false);
          setCreated(token);
          setShowCreated(true);
          onCreated({ id: token.id, name: token.name, token: token.token });
          onChanged();
        }}
      />
      <Modal
        open={showCreated}
        width={600}
        title={t('mcp.tokens.createdTitle', { name: created?.name ?? '' })}
        maskClosable={false}
        closable={false}
        keyboard={false}
        // The secret leaves the page with the dialog: nothing keeps it in the DOM afterwards.
        destroyOnHidden
        afterClose={() => setCreated(null)}
        onCancel={() => setShowCreated(false)}
        footer={
          <Button type="primary" onClick={() => setShowCreated(false)} data-testid="mcp-token-done">
            {t('mcp.tokens.savedIt')}
          </Button>
        }
      >
        <Flex vertical gap={12} data-testid="mcp-token-created">
          <Alert type="warning" showIcon title={t('mcp.tokens.shownOnce')} />
          <Flex gap={8} align="flex-start">
            <Input.TextArea
              value={created?.token ?? ''}
              readOnly
              autoSize
              data-testid="mcp-token-secret"
              style={{ fontFamily: 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace' }}
            />
            <CopyButton text={created?.token ?? ''} type="primary" label={t('mcp.copy')} data-testid="mcp-token-copy" />
          </Flex>
          <Typography.Text type="secondary">{t('mcp.tokens.nextStep')}</Typography.Text>
        </Flex>
      </Modal>
    </Flex>
  );
}
