import type { SceneSettings } from '@athena/contract';
import { Drawer } from 'antd';
import { useTranslation } from 'react-i18next';
import { ChannelOptions } from './channel-options.tsx';

/** What the page's scene drawers (channels, reply settings) are given. */
export interface SceneDrawerProps {
  open: boolean;
  onClose: () => void;
  settings: SceneSettings;
  canConfigure: boolean;
  spaceId: string | null;
  sceneId: number;
}

/** How the scene's messages arrive, from the page's header at any time. */
export function ConnectDrawer({ open, onClose, settings, canConfigure, spaceId, sceneId }: SceneDrawerProps) {
  const { t } = useTranslation();
  return (
    <Drawer
      open={open}
      onClose={onClose}
      size={520}
      destroyOnHidden
      title={canConfigure ? t('chatHistory.connect') : t('chatHistory.howMessagesArrive')}
      data-testid="chat-connect-drawer"
    >
      <ChannelOptions settings={settings} canConfigure={canConfigure} spaceId={spaceId} sceneId={sceneId} vertical />
    </Drawer>
  );
}
