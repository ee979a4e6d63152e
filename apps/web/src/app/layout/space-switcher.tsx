import { DownOutlined, SwapOutlined } from '@ant-design/icons';
import { spaceRoutes } from '@athena/contract';
import { useQuery } from '@tanstack/react-query';
import { App, Button, Dropdown, Flex, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api, errorText } from '../../lib/api-client.ts';
import { currentLocale } from '../../lib/i18n.ts';
import { queryClient } from '../../lib/query-client.ts';
import { queryKeys } from '../../lib/query-keys.ts';
import { useApiMutation } from '../../shared/hooks/use-api-mutation.ts';
import { useSpaceName } from '../../shared/hooks/use-space-name.ts';
import { RoleTag } from '../../shared/ui/role-tag.tsx';
import { useUserStore } from '../../stores/user-store.ts';

/** The header's space switcher (space/list, space/select). */
export function SpaceSwitcher({ compact = false }: { compact?: boolean }) {
  const { t } = useTranslation();
  const spaceName = useSpaceName();
  const { message } = App.useApp();
  const team = useUserStore((s) => s.team);
  const setTeam = useUserStore((s) => s.setTeam);
  const [open, setOpen] = useState(false);
  const [switching, setSwitching] = useState(false);
  const selectSpace = useApiMutation(spaceRoutes.select);
  const spaces = useQuery({ queryKey: queryKeys.space.list(), queryFn: () => api(spaceRoutes.list), enabled: open });

  const select = async (id: string) => {
    if (id === team?.id) return;
    setSwitching(true);
    try {
      const space = await selectSpace.mutateAsync({ selected_space_id: id });
      setTeam(space);
      await queryClient.invalidateQueries();
      void message.success(t('header.spaceSwitched', { name: spaceName(space) }));
    } catch {
      // The failure's notice is already showing.
    } finally {
      setSwitching(false);
    }
  };

  const items = spaces.isError
    ? [{ key: 'error', disabled: true, label: errorText(spaces.error, currentLocale()) }]
    : (spaces.data?.items ?? []).map((space) => ({
        key: space.id,
        label: (
          <Flex justify="space-between" align="center" gap={16} data-testid={`space-option-${space.id}`}>
            <span>
              {spaceName(space)}
              {space.personal ? <Tag style={{ marginInlineStart: 8 }}>{t('header.personal')}</Tag> : null}
            </span>
            <RoleTag role={space.role} />
          </Flex>
        ),
      }));

  return (
    <Dropdown
      trigger={['click']}
      open={open}
      onOpenChange={setOpen}
      menu={{
        items: spaces.isPending ? [{ key: 'loading', disabled: true, label: t('common.loading') }] : items,
        selectable: true,
        selectedKeys: team ? [team.id] : [],
        onClick: ({ key }) => void select(key),
      }}
    >
      <Button type="text" loading={switching} data-testid="space-switcher" aria-label={t('header.switchSpace')}>
        <SwapOutlined />
        <Typography.Text strong ellipsis style={{ maxWidth: compact ? 120 : 220 }}>
          {team ? spaceName(team) : t('header.noSpace')}
        </Typography.Text>
        <DownOutlined style={{ fontSize: 10 }} />
      </Button>
    </Dropdown>
  );
}
