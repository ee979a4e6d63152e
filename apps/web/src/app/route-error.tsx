import { WarningOutlined } from '@ant-design/icons';
import { Button, Flex, theme } from 'antd';
import { useTranslation } from 'react-i18next';
import { useRouteError } from 'react-router';

/**
 * Shown when a page crashes or its code cannot be downloaded (e.g. after a deploy). Built from
 * light parts on purpose: it sits in the entry bundle, which the /login size budget covers.
 */
export function RouteError() {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const error = useRouteError();
  console.error(error);
  return (
    <Flex
      vertical
      align="center"
      justify="center"
      gap={12}
      style={{ minHeight: '60vh', padding: 24, textAlign: 'center' }}
    >
      <WarningOutlined style={{ fontSize: 48, color: token.colorWarning }} />
      <h2 style={{ margin: 0, fontSize: token.fontSizeHeading3, color: token.colorText }}>
        {t('common.pageErrorTitle')}
      </h2>
      <p style={{ margin: 0, maxWidth: 480, color: token.colorTextSecondary }}>{t('common.pageErrorText')}</p>
      <Button type="primary" onClick={() => window.location.reload()}>
        {t('common.reload')}
      </Button>
    </Flex>
  );
}
