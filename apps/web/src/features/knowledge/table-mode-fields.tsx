import { TableOutlined } from '@ant-design/icons';
import type { KnowledgeUnit } from '@athena/contract';
import { Card, Flex, Segmented, Select, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { type TableValues, tableProblem } from './chunking.ts';

/** Column options: "1 · 问题" — a header may be empty or repeated, so its number leads. */
const columnOptions = (columns: string[]) =>
  columns.map((name, index) => ({ value: index, label: `${index + 1} · ${name || '—'}` }));

const COLUMN_PICKER = { flex: '1 1 160px', minWidth: 160, maxWidth: 280 } as const;

function SheetRow({
  unit,
  value,
  onChange,
}: {
  unit: KnowledgeUnit;
  value: TableValues;
  onChange: (value: TableValues) => void;
}) {
  const { t } = useTranslation();
  const columns = unit.columns ?? [];
  const options = columnOptions(columns);
  const same = tableProblem(value);
  return (
    <Flex vertical gap={8} data-testid="table-mode-row" data-unit-id={unit.id} data-mode={value.mode}>
      <Flex align="center" gap={8} wrap>
        <TableOutlined />
        <Typography.Text strong ellipsis style={{ maxWidth: 320 }} title={unit.file_name}>
          {unit.file_name}
        </Typography.Text>
        <Segmented<TableValues['mode']>
          size="small"
          value={value.mode}
          onChange={(mode) => onChange({ ...value, mode })}
          data-testid="table-mode-switch"
          options={[
            {
              value: 'qa',
              label: <span data-testid="table-mode-qa">{t('knowledge.tableMode.qa')}</span>,
              disabled: columns.length < 2,
            },
            { value: 'row', label: <span data-testid="table-mode-row-option">{t('knowledge.tableMode.row')}</span> },
          ]}
        />
      </Flex>
      {value.mode === 'qa' ? (
        // Side by side, sharing the width (each at least 160 px); one under the other only when
        // even two of those do not fit.
        <Flex gap={12} wrap style={{ paddingInlineStart: 22 }}>
          <Flex vertical gap={4} style={COLUMN_PICKER}>
            <Typography.Text type="secondary" style={{ fontSize: 12 }}>
              {t('knowledge.tableMode.question')}
            </Typography.Text>
            <Select
              value={value.question}
              options={options}
              onChange={(question: number) => onChange({ ...value, question })}
              status={same ? 'error' : undefined}
              style={{ width: '100%' }}
              aria-label={t('knowledge.tableMode.question')}
              data-testid="table-mode-question"
            />
          </Flex>
          <Flex vertical gap={4} style={COLUMN_PICKER}>
            <Typography.Text type="secondary" style={{ fontSize: 12 }}>
              {t('knowledge.tableMode.answer')}
            </Typography.Text>
            <Select
              value={value.answer}
              options={options}
              onChange={(answer: number) => onChange({ ...value, answer })}
              status={same ? 'error' : undefined}
              style={{ width: '100%' }}
              aria-label={t('knowledge.tableMode.answer')}
              data-testid="table-mode-answer"
            />
          </Flex>
        </Flex>
      ) : (
        <Typography.Text type="secondary" style={{ fontSize: 12, paddingInlineStart: 22 }}>
          {t('knowledge.tableMode.rowHelp')}
        </Typography.Text>
      )}
      {same ? (
        <Typography.Text type="danger" style={{ fontSize: 12, paddingInlineStart: 22 }}>
          {t('knowledge.tableMode.sameColumn')}
        </Typography.Text>
      ) : null}
    </Flex>
  );
}

/** For spreadsheets: Q&A (a question and an answer column) or one segment per row, per file. */
export function TableModeFields({
  sheets,
  values,
  onChange,
}: {
  sheets: KnowledgeUnit[];
  values: Record<string, TableValues>;
  onChange: (unitId: string, value: TableValues) => void;
}) {
  const { t } = useTranslation();
  if (sheets.length === 0) return null;
  return (
    <Card size="small" title={t('knowledge.tableMode.title')} data-testid="table-mode">
      <Flex vertical gap={16}>
        <Typography.Text type="secondary" style={{ fontSize: 12 }}>
          {t('knowledge.tableMode.intro')}
        </Typography.Text>
        {sheets.map((unit) =>
          values[unit.id] ? (
            <SheetRow
              key={unit.id}
              unit={unit}
              value={values[unit.id]}
              onChange={(value) => onChange(unit.id, value)}
            />
          ) : null,
        )}
      </Flex>
    </Card>
  );
}
