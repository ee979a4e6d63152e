import { DeleteOutlined, FolderOpenOutlined } from '@ant-design/icons';
import { Button, Flex, Tooltip, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { formatBytes } from '../../lib/format.ts';
import { useGo } from '../../lib/navigation.ts';
import { discardUnfinished } from './upload-resume.ts';
import type { UnfinishedUpload } from './upload-store.ts';

/** Uploads interrupted by a reload or a closed tab: choose the file again to continue, or discard. */
export function UnfinishedRows({ list }: { list: UnfinishedUpload[] }) {
  const { t } = useTranslation();
  const go = useGo();
  if (list.length === 0) return null;
  return (
    <Flex vertical gap={2} data-testid="upload-unfinished">
      <Typography.Text type="secondary" style={{ fontSize: 12 }}>
        {t('media.upload.unfinishedHint')}
      </Typography.Text>
      {list.map((upload) => (
        <Flex
          key={upload.key}
          vertical
          gap={2}
          style={{ padding: '6px 0' }}
          data-testid="upload-unfinished-row"
          data-name={upload.name}
        >
          <Flex align="center" gap={4}>
            <Typography.Text ellipsis={{ tooltip: upload.name }} style={{ flex: 1, minWidth: 0 }}>
              {upload.name}
            </Typography.Text>
            <Tooltip title={t('media.upload.openLibrary')}>
              <Button
                size="small"
                type="text"
                icon={<FolderOpenOutlined />}
                aria-label={t('media.upload.openLibrary')}
                onClick={() => go('medialib', { query: { library: upload.libraryId } })}
                data-testid="upload-unfinished-open"
              />
            </Tooltip>
            <Tooltip title={t('media.upload.discard')}>
              <Button
                size="small"
                type="text"
                icon={<DeleteOutlined />}
                aria-label={t('media.upload.discard')}
                onClick={() => void discardUnfinished(upload)}
                data-testid="upload-unfinished-discard"
              />
            </Tooltip>
          </Flex>
          {/* No bar: how far it got is the server's to say (a HEAD), and it is read when the file is back. */}
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            {t('media.upload.interrupted', { size: formatBytes(upload.size) })}
          </Typography.Text>
        </Flex>
      ))}
    </Flex>
  );
}
