import { DownloadOutlined, FileOutlined } from '@ant-design/icons';
import type { CustomBusinessAttachment, RequestDetail } from '@athena/contract';
import { Button, Descriptions, Empty, Flex, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { showErrorNotice } from '../../lib/error-notice.ts';
import { userTime } from '../../lib/user-time.ts';
import { formatBytes } from './form-rules.ts';
import { downloadAttachment } from './transfer.ts';

function AttachmentRow({ file }: { file: CustomBusinessAttachment }) {
  const { t } = useTranslation();
  const [busy, setBusy] = useState(false);
  const download = async () => {
    setBusy(true);
    try {
      await downloadAttachment(file);
    } catch (error) {
      showErrorNotice(error);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Flex align="center" gap={8} data-testid="cab-attachment" data-name={file.name}>
      <FileOutlined style={{ color: '#6366f1' }} />
      <Typography.Text ellipsis style={{ flex: 1, minWidth: 0 }} title={file.name}>
        {file.name}
      </Typography.Text>
      <Typography.Text type="secondary" style={{ fontSize: 12 }}>
        {formatBytes(file.size)}
      </Typography.Text>
      <Button
        size="small"
        icon={<DownloadOutlined />}
        loading={busy}
        onClick={() => void download()}
        data-testid="cab-attachment-download"
      >
        {t('customBusiness.detail.download')}
      </Button>
    </Flex>
  );
}

/** What was asked for: the facts, the requirements text and the files. */
export function RequestFacts({ request }: { request: RequestDetail }) {
  const { t } = useTranslation();
  const contact = [request.contact_name, request.contact_phone, request.contact_email].filter(Boolean).join(' · ');
  const items = [
    ...(request.space ? [{ key: 'space', label: t('customBusiness.detail.space'), children: request.space.name }] : []),
    {
      key: 'scenario',
      label: t('customBusiness.detail.scenario'),
      children: t(`customBusiness.scenario.${request.scenario}`),
    },
    {
      key: 'budget',
      label: t('customBusiness.detail.budget'),
      children: t(`customBusiness.budget.${request.budget_range}`),
    },
    {
      key: 'date',
      label: t('customBusiness.detail.expectedDate'),
      children: request.expected_date ?? t('customBusiness.detail.noDate'),
    },
    { key: 'requester', label: t('customBusiness.detail.requester'), children: request.requester.nickname },
    {
      key: 'submitted',
      label: t('customBusiness.detail.submittedAt'),
      children: userTime(request.created_at).format('YYYY-MM-DD HH:mm'),
    },
    {
      key: 'contact',
      label: t('customBusiness.detail.contact'),
      children: <span data-testid="cab-detail-contact">{contact}</span>,
    },
  ];
  return (
    <Flex vertical gap={16}>
      <Descriptions size="small" column={{ xs: 1, sm: 2 }} items={items} data-testid="cab-detail-facts" />
      <div>
        <Typography.Title level={5}>{t('customBusiness.detail.requirements')}</Typography.Title>
        <Typography.Paragraph style={{ whiteSpace: 'pre-wrap', marginBottom: 0 }} data-testid="cab-detail-requirements">
          {request.requirements}
        </Typography.Paragraph>
      </div>
      <div>
        <Typography.Title level={5}>{t('customBusiness.detail.attachments')}</Typography.Title>
        {request.attachments.length ? (
          <Flex vertical gap={8}>
            {request.attachments.map((file) => (
              <AttachmentRow key={file.id} file={file} />
            ))}
          </Flex>
        ) : (
          <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('customBusiness.detail.noAttachments')} />
        )}
      </div>
    </Flex>
  );
}
