import { Modal } from 'antd';
import { useTranslation } from 'react-i18next';
import { LoginPanel } from './login-panel.tsx';

/** Shown over the app whenever there is no session; it cannot be dismissed, only completed. */
export function LoginModal() {
  const { t } = useTranslation();
  return (
    <Modal
      open
      centered
      width={440}
      footer={null}
      closable={false}
      keyboard={false}
      mask={{ closable: false }}
      title={null}
      aria-label={t('login.title')}
    >
      <div data-testid="login-modal">
        <LoginPanel />
      </div>
    </Modal>
  );
}
