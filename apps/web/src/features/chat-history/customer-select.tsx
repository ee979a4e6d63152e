import { UserOutlined } from '@ant-design/icons';
import { Avatar, Flex, Select, Spin, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useDebouncedValue } from '../../shared/hooks/use-debounced-value.ts';
import { useCustomerSearch } from './chat-history-queries.ts';

interface Props {
  spaceId: string | null;
  sceneId: number | null;
  value: { id: string; name: string } | null;
  onChange: (customer: { id: string; name: string } | null) => void;
}

/** The last characters of a long id, marked as cut. */
const tailOf = (id: string) => (id.length > 8 ? `…${id.slice(-6)}` : id);

/** The customer filter: customers of the scene found by name (or by the channel's id) as the person types (the server's 20 best). */
export function CustomerSelect({ spaceId, sceneId, value, onChange }: Props) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const [typed, setTyped] = useState('');
  const keyword = useDebouncedValue(typed.trim(), 300);
  // Asked only once the list opens: most visits never use this filter.
  const found = useCustomerSearch(spaceId, sceneId, keyword, open);
  const items = found.data?.items ?? [];
  const options = items.map((customer) => ({
    value: customer.id,
    name: customer.name,
    label: (
      <Flex align="center" gap={8} title={customer.source_id}>
        <Avatar size={20} src={customer.avatar_url || undefined} icon={<UserOutlined />} />
        <span>{customer.name || t('chatHistory.filters.customerUnnamed')}</span>
        {/* The end of the channel's id tells two customers of one name apart. */}
        <Typography.Text type="secondary" style={{ fontSize: 12 }} data-testid="chat-customer-source">
          {tailOf(customer.source_id)}
        </Typography.Text>
      </Flex>
    ),
  }));
  // The chosen customer stays nameable when the current search does not list them.
  if (value && !items.some((customer) => customer.id === value.id)) {
    options.unshift({ value: value.id, name: value.name, label: <span>{value.name || value.id}</span> });
  }
  return (
    <Select
      style={{ width: '100%' }}
      allowClear
      placeholder={t('chatHistory.filters.customerAny')}
      prefix={<UserOutlined />}
      value={value?.id}
      options={options}
      optionLabelProp="label"
      open={open}
      onOpenChange={(next) => {
        setOpen(next);
        if (!next) setTyped('');
      }}
      showSearch={{ filterOption: false, onSearch: setTyped, searchValue: typed }}
      notFoundContent={found.isFetching ? <Spin size="small" /> : t('chatHistory.filters.customerNone')}
      onChange={(id: string | undefined) => {
        const chosen = options.find((option) => option.value === id);
        onChange(chosen ? { id: chosen.value, name: chosen.name } : null);
      }}
      data-testid="chat-filter-customer"
      aria-label={t('chatHistory.filters.customer')}
    />
  );
}
