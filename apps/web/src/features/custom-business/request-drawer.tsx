import { CheckOutlined, StopOutlined } from '@ant-design/icons';
import { customBusinessRoutes, NOTE_MAX, type RequestDetail } from '@athena/contract';
import { useMutation } from '@tanstack/react-query';
import { Alert, App, Button, Card, Divider, Drawer, Flex, Input, Skeleton, Typography } from 'antd';
import { useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { api, errorText } from '../../lib/api-client.ts';
import { formatFen } from '../../lib/format.ts';
import { currentLocale } from '../../lib/i18n.ts';
import { testId } from '../../lib/test-id.ts';
import { OperatorStatusForm } from './operator-status-form.tsx';
import { refreshCustomBusiness, useRequest } from './queries.ts';
import { RequestFacts } from './request-facts.tsx';
import { StatusTag, StatusTimeline } from './status.tsx';

/** The quote as the requester sees it, with the accept button while it is open. */
function QuoteCard({
  request,
  operator,
  onAccept,
}: {
  request: RequestDetail;
  operator: boolean;
  onAccept: () => void;
}) {
  const { t } = useTranslation();
  if (request.quote_fen === null) return null;
  const accepted = request.status === 'accepted';
  return (
    <Card
      size="small"
      data-testid="cab-quote"
      style={{
        borderColor: accepted ? '#52c41a' : '#722ed1',
        background: accepted ? 'rgba(82,196,26,0.06)' : 'rgba(114,46,209,0.05)',
      }}
    >
      <Flex justify="space-between" align="center" gap={16} wrap>
        <div>
          <Typography.Text type="secondary">{t('customBusiness.detail.quote')}</Typography.Text>
          <div style={{ fontSize: 28, fontWeight: 600 }} data-testid="cab-quote-amount">
            {formatFen(request.quote_fen, currentLocale())}
          </div>
        </div>
        {request.can_accept ? (
          <Button type="primary" size="large" icon={<CheckOutlined />} onClick={onAccept} data-testid="cab-accept">
            {t('customBusiness.detail.accept')}
          </Button>
        ) : null}
      </Flex>
      {request.quote_note ? (
        <Typography.Paragraph style={{ whiteSpace: 'pre-wrap', margin: '8px 0 0' }} data-testid="cab-quote-note">
          {request.quote_note}
        </Typography.Paragraph>
      ) : null}
      <Typography.Paragraph type="secondary" style={{ margin: '8px 0 0', fontSize: 12 }}>
        {operator
          ? t(accepted ? 'customBusiness.operator.quoteAccepted' : 'customBusiness.operator.quoteWaiting')
          : t(accepted ? 'customBusiness.detail.acceptedNote' : 'customBusiness.detail.quoteHint')}
      </Typography.Paragraph>
    </Card>
  );
}

/**
 * One request in a side drawer: status, quote, facts, files and the timeline. Requesters (and the
 * team's creator and admins) accept or withdraw it here; operators change its status below.
 */
export function RequestDrawer({
  id,
  operator,
  onClose,
}: {
  id: string | null;
  operator: boolean;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const { message, modal } = App.useApp();
  const decide = useMutation({
    mutationFn: ({ route, body }: { route: 'accept' | 'cancel'; body: { id: string; note?: string } }) =>
      api(customBusinessRoutes[route], body),
  });
  const query = useRequest(id, operator);
  const request = query.data;
  const reason = useRef('');

  const act = async (route: 'accept' | 'cancel', body: { id: string; note?: string }, done: string) => {
    try {
      await decide.mutateAsync({ route, body });
      void message.success(done);
    } catch {
      // The failure's notice is already showing.
    } finally {
      await refreshCustomBusiness();
    }
  };

  const accept = (target: RequestDetail) =>
    modal.confirm({
      title: t('customBusiness.detail.acceptTitle'),
      content: t('customBusiness.detail.acceptText', { amount: formatFen(target.quote_fen ?? 0, currentLocale()) }),
      okText: t('customBusiness.detail.acceptOk'),
      cancelText: t('customBusiness.form.cancel'),
      okButtonProps: { ...testId('cab-accept-confirm') },
      onOk: () => act('accept', { id: target.id }, t('customBusiness.detail.accepted')),
    });

  const cancel = (target: RequestDetail) => {
    reason.current = '';
    modal.confirm({
      title: t('customBusiness.detail.cancelTitle'),
      content: (
        <Flex vertical gap={8}>
          <span>{t('customBusiness.detail.cancelText')}</span>
          <Input.TextArea
            maxLength={NOTE_MAX}
            autoSize={{ minRows: 2, maxRows: 5 }}
            placeholder={t('customBusiness.detail.cancelReason')}
            onChange={(event) => {
              reason.current = event.target.value;
            }}
            data-testid="cab-cancel-reason"
          />
        </Flex>
      ),
      okText: t('customBusiness.detail.cancelOk'),
      cancelText: t('customBusiness.detail.keep'),
      okButtonProps: { danger: true, ...testId('cab-cancel-confirm') },
      onOk: () =>
        act(
          'cancel',
          { id: target.id, note: reason.current.trim() || undefined },
          t('customBusiness.detail.cancelled'),
        ),
    });
  };

  return (
    <Drawer
      open={Boolean(id)}
      onClose={onClose}
      size={640}
      destroyOnHidden
      title={
        request ? (
          <Flex align="center" gap={8} wrap>
            <span data-testid="cab-detail-title">{request.title}</span>
            <StatusTag status={request.status} testId="cab-detail-status" />
          </Flex>
        ) : (
          t('customBusiness.detail.loading')
        )
      }
      footer={
        request?.can_cancel ? (
          <Flex justify="flex-end">
            <Button danger icon={<StopOutlined />} onClick={() => cancel(request)} data-testid="cab-cancel">
              {t('customBusiness.detail.cancel')}
            </Button>
          </Flex>
        ) : null
      }
    >
      <div data-testid={operator ? 'cab-op-drawer' : 'cab-drawer'} data-id={id ?? ''}>
        {query.isPending ? (
          <Skeleton active data-testid="cab-detail-loading" />
        ) : query.isError || !request ? (
          <Alert
            type="error"
            showIcon
            data-testid="cab-detail-error"
            title={t('customBusiness.detail.loadFailed')}
            description={errorText(query.error, currentLocale())}
            action={
              <Button size="small" onClick={() => void query.refetch()}>
                {t('common.retry')}
              </Button>
            }
          />
        ) : (
          <Flex vertical gap={16}>
            <QuoteCard request={request} operator={operator} onAccept={() => accept(request)} />
            {operator ? <OperatorStatusForm request={request} /> : null}
            <RequestFacts request={request} />
            <Divider style={{ margin: 0 }} />
            <div>
              <Typography.Title level={5}>{t('customBusiness.detail.timeline')}</Typography.Title>
              <StatusTimeline history={request.history} status={request.status} />
            </div>
          </Flex>
        )}
      </div>
    </Drawer>
  );
}
