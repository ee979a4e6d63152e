import { Flex, theme } from 'antd';
import { useTranslation } from 'react-i18next';

/** The Athena mark: a small gradient tile with the initial, then the name. */
export function Brand({ size = 32, showName = true }: { size?: number; showName?: boolean }) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  return (
    <Flex align="center" gap={10}>
      <span
        aria-hidden
        style={{
          width: size,
          height: size,
          borderRadius: size / 4,
          background: 'linear-gradient(135deg, #6366f1 0%, #4f46e5 50%, #7c3aed 100%)',
          color: '#fff',
          display: 'inline-flex',
          alignItems: 'center',
          justifyContent: 'center',
          fontWeight: 700,
          fontSize: size * 0.55,
          flex: 'none',
        }}
      >
        A
      </span>
      {showName ? (
        <span style={{ fontSize: size * 0.56, fontWeight: 600, letterSpacing: 0.2, color: token.colorText }}>
          {t('app.name')}
        </span>
      ) : null}
    </Flex>
  );
}
