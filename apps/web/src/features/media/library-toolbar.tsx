import { AppstoreOutlined, BarsOutlined, SearchOutlined } from '@ant-design/icons';
import { MEDIA_KINDS, type MediaKind } from '@athena/contract';
import { Flex, Input, Segmented, Select } from 'antd';
import { useTranslation } from 'react-i18next';

export type ItemLayout = 'grid' | 'list';
export const SORTS = ['time-desc', 'time-asc', 'name-asc', 'name-desc', 'size-desc', 'size-asc'] as const;
export type SortChoice = (typeof SORTS)[number];

export interface ToolbarState {
  trash: boolean;
  kind: MediaKind | null;
  search: string;
  sort: SortChoice;
  layout: ItemLayout;
}

/** Files or trash, kind, name search, sort and grid/list: what the item view shows and how. */
export function LibraryToolbar({ state, onChange }: { state: ToolbarState; onChange: (next: ToolbarState) => void }) {
  const { t } = useTranslation();
  const set = (change: Partial<ToolbarState>) => onChange({ ...state, ...change });
  return (
    <Flex gap={8} wrap align="center">
      <Segmented
        value={state.trash ? 'trash' : 'files'}
        onChange={(value) => set({ trash: value === 'trash' })}
        options={[
          { value: 'files', label: <span data-testid="media-tab-files">{t('media.items.files')}</span> },
          { value: 'trash', label: <span data-testid="media-tab-trash">{t('media.items.trash')}</span> },
        ]}
      />
      <Select
        value={state.kind ?? 'all'}
        onChange={(value) => set({ kind: value === 'all' ? null : (value as MediaKind) })}
        style={{ width: 130 }}
        options={[
          { value: 'all', label: t('media.kind.all') },
          ...MEDIA_KINDS.map((kind) => ({ value: kind, label: t(`media.kind.${kind}`) })),
        ]}
        aria-label={t('media.items.kindFilter')}
        data-testid="media-kind-filter"
      />
      <Input
        allowClear
        prefix={<SearchOutlined />}
        placeholder={t('media.items.search')}
        value={state.search}
        onChange={(event) => set({ search: event.target.value })}
        style={{ width: 200 }}
        maxLength={100}
        data-testid="media-search"
      />
      <Select
        value={state.sort}
        onChange={(sort) => set({ sort })}
        style={{ width: 150 }}
        options={SORTS.map((sort) => ({ value: sort, label: t(`media.sort.${sort}`) }))}
        aria-label={t('media.items.sortLabel')}
        data-testid="media-sort"
      />
      <Segmented<ItemLayout>
        value={state.layout}
        onChange={(layout) => set({ layout })}
        options={[
          { value: 'grid', icon: <AppstoreOutlined />, title: t('media.items.grid') },
          { value: 'list', icon: <BarsOutlined />, title: t('media.items.list') },
        ]}
        data-testid="media-layout"
      />
    </Flex>
  );
}
