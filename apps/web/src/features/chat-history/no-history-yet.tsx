import { MessageOutlined } from '@ant-design/icons';
import type { SceneSettings } from '@athena/contract';
import { Flex, Typography, theme } from 'antd';
import { useTranslation } from 'react-i18next';
import { ChannelOptions, isWecomScene } from './channel-options.tsx';

interface Props {
  settings: SceneSettings;
  sceneLabel: string;
  canConfigure: boolean;
  spaceId: string | null;
  sceneId: number;
}

/**
 * A scene without any conversation yet: how messages get here, and (for the creator and admins)
 * the ingest address to set up right away. It gives way to the list as soon as a message arrives.
 */
export function NoHistoryYet({ settings, sceneLabel, canConfigure, spaceId, sceneId }: Props) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  return (
    <Flex
      vertical
      align="center"
      gap={12}
      style={{ padding: '32px 16px', overflowY: 'auto', height: '100%' }}
      data-testid="chat-no-history"
    >
      <MessageOutlined style={{ fontSize: 44, color: token.colorPrimary }} />
      <Typography.Title level={4} style={{ margin: 0, textAlign: 'center' }}>
        {t('chatHistory.empty.title', { scene: sceneLabel })}
      </Typography.Title>
      <Typography.Paragraph type="secondary" style={{ maxWidth: 640, textAlign: 'center' }}>
        {isWecomScene(sceneId) ? t('chatHistory.empty.text') : t('chatHistory.empty.textIngestOnly')}
      </Typography.Paragraph>
      <div style={{ width: '100%', maxWidth: isWecomScene(sceneId) ? 960 : 640 }}>
        <ChannelOptions
          settings={settings}
          canConfigure={canConfigure}
          spaceId={spaceId}
          sceneId={sceneId}
          vertical={false}
        />
      </div>
    </Flex>
  );
}
