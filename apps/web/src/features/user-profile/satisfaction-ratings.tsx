import type { SatisfactionSurvey } from '@athena/contract';
import { Empty, Flex, List, Rate, Skeleton, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { ListLoadError } from '../../shared/ui/list-page-parts.tsx';
import { RelativeTime } from '../../shared/ui/relative-time.tsx';
import { useCustomerSatisfaction } from './behaviour-queries.ts';

interface Props {
  customerId: string;
  spaceId: string | null;
  sceneId: number;
}

/** A customer's satisfaction surveys: the score as stars and its label, or why there is none. */
export function SatisfactionRatings({ customerId, spaceId, sceneId }: Props) {
  const { t } = useTranslation();
  const surveys = useCustomerSatisfaction(spaceId, sceneId, customerId);
  if (surveys.isError) {
    return (
      <ListLoadError
        title={t('userProfile.satisfaction.loadFailed')}
        error={surveys.error}
        onRetry={() => void surveys.refetch()}
        testId="satisfaction-error"
      />
    );
  }
  if (surveys.isPending) return <Skeleton active paragraph={{ rows: 4 }} />;
  const items = surveys.data.items;
  if (items.length === 0) {
    return <Empty description={t('userProfile.satisfaction.none')} data-testid="satisfaction-empty" />;
  }

  const outcome = (survey: SatisfactionSurvey) => {
    if (survey.state === 'rated' && survey.score !== null) {
      return (
        <Flex gap={8} align="center">
          <Rate disabled value={survey.score} style={{ fontSize: 14 }} />
          <Typography.Text strong>{survey.label ?? survey.score}</Typography.Text>
        </Flex>
      );
    }
    if (survey.state === 'failed') {
      return (
        <Typography.Text type="danger" style={{ fontSize: 12 }}>
          {t('userProfile.satisfaction.failed', { reason: survey.fail_reason ?? '' })}
        </Typography.Text>
      );
    }
    return <Tag bordered={false}>{t('userProfile.satisfaction.waiting')}</Tag>;
  };

  return (
    <List
      dataSource={items}
      data-testid="satisfaction-list"
      renderItem={(survey) => (
        <List.Item key={survey.id} data-testid="satisfaction-survey" data-state={survey.state}>
          <Flex vertical gap={2} style={{ width: '100%' }}>
            {outcome(survey)}
            <Typography.Text type="secondary" style={{ fontSize: 12 }}>
              {[
                // A private WeCom chat has no title; its internal id would mean nothing to a reader.
                survey.conversation_title
                  ? t('userProfile.satisfaction.conversation', { id: survey.conversation_title })
                  : null,
                survey.servicer ? t('userProfile.satisfaction.servicer', { name: survey.servicer }) : null,
                survey.agent_name ? t('userProfile.satisfaction.agent', { name: survey.agent_name }) : null,
              ]
                .filter(Boolean)
                .join(' · ')}
            </Typography.Text>
            <Typography.Text type="secondary" style={{ fontSize: 12 }}>
              {t('userProfile.satisfaction.asked')} <RelativeTime iso={survey.requested_at} />
              {survey.rated_at ? (
                <>
                  {' · '}
                  {t('userProfile.satisfaction.rated')} <RelativeTime iso={survey.rated_at} />
                </>
              ) : null}
            </Typography.Text>
          </Flex>
        </List.Item>
      )}
    />
  );
}
