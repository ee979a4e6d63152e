import { formatMillifen } from '@athena/contract';
import { Tag, Typography } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { currentLocale } from '../../lib/i18n.ts';
import { usePlatformModels } from '../billing/billing-queries.ts';
import { useChatModelKeys } from './agent-queries.ts';

export interface ModelOptionGroup {
  label: ReactNode;
  title: string;
  options: { value: string; label: ReactNode }[];
}

/**
 * What a chat model may be picked from: the team's own keys (free) and the platform's models,
 * each with its price, charged to the team's balance (docs/billing.md). The agent editor and the
 * workflow's model nodes show the same two groups.
 */
export function useChatModelOptions(spaceId: string | null, testIdPrefix: string) {
  const { t } = useTranslation();
  const keys = useChatModelKeys(spaceId);
  const platform = usePlatformModels(spaceId);
  const locale = currentLocale();
  const teamKeys = keys.data?.items ?? [];
  const platformModels = (platform.data?.items ?? []).filter((model) => model.enabled);
  const groups: ModelOptionGroup[] = [];
  if (teamKeys.length > 0) {
    groups.push({
      label: t('agents.fields.modelGroupTeam'),
      title: 'team',
      options: teamKeys.map((key) => ({
        value: key.id,
        label: (
          <span data-testid={`${testIdPrefix}-${key.id}`}>
            {key.model_name} · <Typography.Text type="secondary">{key.version}</Typography.Text>
          </span>
        ),
      })),
    });
  }
  if (platformModels.length > 0) {
    groups.push({
      label: t('agents.fields.modelGroupPlatform'),
      title: 'platform',
      options: platformModels.map((model) => ({
        value: model.id,
        label: (
          <span data-testid={`${testIdPrefix}-${model.id}`}>
            {model.model_name}{' '}
            <Tag color="gold" style={{ marginInlineStart: 4 }}>
              {t('agents.fields.modelPlatformPrice', {
                input: formatMillifen(model.input_price, locale),
                output: formatMillifen(model.output_price, locale),
              })}
            </Tag>
          </span>
        ),
      })),
    });
  }
  return {
    groups,
    teamKeys,
    /** Whether an id names something that can be picked (a key of the team or an enabled platform model). */
    knows: (id: string) => teamKeys.some((key) => key.id === id) || platformModels.some((model) => model.id === id),
    loading: keys.isPending || platform.isPending,
    ready: keys.isSuccess && platform.isSuccess,
    /** Nothing at all to pick: no key of the team's and no platform model. */
    empty: keys.isSuccess && platform.isSuccess && teamKeys.length === 0 && platformModels.length === 0,
  };
}
