import { ApiOutlined, CustomerServiceOutlined } from '@ant-design/icons';
import { type SceneSettings, WECOM_SCENES } from '@athena/contract';
import { Card, Flex, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useWecomAccount } from './chat-history-queries.ts';
import { IngestPanel } from './ingest-panel.tsx';
import { WecomPanel, WecomStateTag } from './wecom-panel.tsx';

interface Props {
  settings: SceneSettings;
  canConfigure: boolean;
  spaceId: string | null;
  sceneId: number;
  /** Side by side on the empty page, one above the other in the drawer. */
  vertical: boolean;
}

/** The scenes a WeCom customer-service account feeds (the contract's WECOM_SCENES). */
export const isWecomScene = (sceneId: number) => WECOM_SCENES.includes(sceneId);

/**
 * The ways messages reach a scene: WeCom customer service (WeCom scenes only) and the signed
 * ingest API.
 */
export function ChannelOptions({ settings, canConfigure, spaceId, sceneId, vertical }: Props) {
  const { t } = useTranslation();
  const wecom = useWecomAccount(spaceId, sceneId, isWecomScene(sceneId));
  return (
    <Flex gap={16} vertical={vertical} align="stretch" style={{ width: '100%' }}>
      {isWecomScene(sceneId) ? (
        <Card
          size="small"
          style={{ flex: 1, minWidth: 0 }}
          title={
            <Flex gap={8} align="center">
              <CustomerServiceOutlined />
              {t('chatHistory.empty.wecomTitle')}
              <WecomStateTag account={wecom.data} />
            </Flex>
          }
          data-testid="chat-channel-wecom"
        >
          <Typography.Paragraph type="secondary">{t('chatHistory.empty.wecomText')}</Typography.Paragraph>
          <WecomPanel canConfigure={canConfigure} spaceId={spaceId} sceneId={sceneId} />
        </Card>
      ) : null}
      <Card
        size="small"
        style={{ flex: vertical || !isWecomScene(sceneId) ? undefined : 1.6, minWidth: 0, width: '100%' }}
        title={
          <Flex gap={8} align="center">
            <ApiOutlined />
            {t('chatHistory.empty.ingestTitle')}
          </Flex>
        }
      >
        <Typography.Paragraph type="secondary">{t('chatHistory.empty.ingestText')}</Typography.Paragraph>
        <IngestPanel ingest={settings.ingest} canConfigure={canConfigure} spaceId={spaceId} sceneId={sceneId} />
      </Card>
    </Flex>
  );
}
