import { SearchOutlined } from '@ant-design/icons';
import type { CustomBusinessStatus, OperatorRequestSummary } from '@athena/contract';
import { Empty, Input, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useDebouncedValue } from '../../shared/hooks/use-debounced-value.ts';
import { useOperatorRequests } from './queries.ts';
import { RequestsTable, StatusFilter, Toolbar, useSummaryColumns } from './requests-table.tsx';

/** Operators only: every space's requests, to review, quote and close. */
export function OperatorPanel({ onOpen }: { onOpen: (id: string) => void }) {
  const { t } = useTranslation();
  const [status, setStatus] = useState<CustomBusinessStatus | undefined>();
  const [search, setSearch] = useState('');
  const [page, setPage] = useState(1);
  const keyword = useDebouncedValue(search.trim(), 300);
  const query = useOperatorRequests({ status, keyword: keyword || undefined, page }, true);
  const columns = useSummaryColumns<OperatorRequestSummary>([
    { key: 'space', title: t('customBusiness.list.space'), render: (_, row) => row.space.name },
  ]);

  return (
    <div data-testid="cab-operator">
      <Typography.Paragraph type="secondary">{t('customBusiness.operator.intro')}</Typography.Paragraph>
      <Toolbar>
        <Input
          allowClear
          prefix={<SearchOutlined />}
          placeholder={t('customBusiness.operator.search')}
          style={{ maxWidth: 320 }}
          value={search}
          onChange={(event) => {
            setSearch(event.target.value);
            setPage(1);
          }}
          data-testid="cab-op-search"
        />
        <StatusFilter
          value={status}
          onChange={(next) => {
            setStatus(next);
            setPage(1);
          }}
          testId="cab-op-status-filter"
        />
      </Toolbar>
      <RequestsTable
        query={query}
        columns={columns}
        page={page}
        onPage={setPage}
        onOpen={onOpen}
        testId="cab-op-list"
        empty={<Empty description={t('customBusiness.operator.empty')} />}
      />
    </div>
  );
}
