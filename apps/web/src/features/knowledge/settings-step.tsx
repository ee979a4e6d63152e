import { PlayCircleOutlined } from '@ant-design/icons';
import { type KnowledgeUnit, knowledgeRoutes } from '@athena/contract';
import { Alert, Button, Card, Flex, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../lib/api-client.ts';
import { errorNotice } from '../../lib/error-notice.ts';
import { ChunkPreview } from './chunk-preview.tsx';
import {
  type ChunkingValues,
  chunkingProblem,
  DEFAULT_CHUNKING,
  guessTableValues,
  type TableValues,
  tableProblem,
  toChunking,
  toTableMode,
} from './chunking.ts';
import { ChunkingForm } from './chunking-form.tsx';
import { isSpreadsheet } from './file-checks.ts';
import { startCalls } from './start-plan.ts';
import { TableModeFields } from './table-mode-fields.tsx';

/**
 * A sheet's Q&A choice: a guess from its header for a fresh upload (its stored mode is only the
 * server's default then), else what was chosen before.
 */
function initialTable(unit: KnowledgeUnit): TableValues {
  const saved = unit.status === 'not_indexed' ? null : unit.table_mode;
  if (saved?.mode === 'qa') return { mode: 'qa', question: saved.question_column, answer: saved.answer_column };
  if (saved?.mode === 'row') return { mode: 'row', question: 0, answer: 0 };
  return guessTableValues(unit.columns);
}

/**
 * Step 2: how the files are cut (automatic or custom), for spreadsheets Q&A or rows, a preview of
 * the first chunks, then "Start indexing" for all of them.
 */
export function SettingsStep({
  units,
  onBack,
  onStarting,
  onStarted,
}: {
  units: KnowledgeUnit[];
  onBack: (() => void) | null;
  onStarting: (starting: boolean) => void;
  onStarted: () => void;
}) {
  const { t } = useTranslation();
  const [chunking, setChunking] = useState<ChunkingValues>(DEFAULT_CHUNKING);
  const sheets = units.filter((unit) => isSpreadsheet(unit.file_kind));
  const [tables, setTables] = useState<Record<string, TableValues>>(() =>
    Object.fromEntries(sheets.map((unit) => [unit.id, initialTable(unit)])),
  );
  const [starting, setStarting] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const chunkingBody = chunkingProblem(chunking) ? null : toChunking(chunking);
  const tableModeOf = (unit: KnowledgeUnit) => {
    const value = tables[unit.id] ?? initialTable(unit);
    return isSpreadsheet(unit.file_kind) ? toTableMode(value) : null;
  };
  const invalid = !chunkingBody || Object.values(tables).some(tableProblem);

  const start = async () => {
    if (!chunkingBody) return;
    setStarting(true);
    onStarting(true);
    setError(null);
    try {
      for (const body of startCalls(units, chunkingBody, tableModeOf)) await api(knowledgeRoutes.unitStart, body);
      onStarted();
    } catch (caught) {
      setError(errorNotice(caught));
      onStarting(false);
    } finally {
      setStarting(false);
    }
  };

  return (
    <Flex vertical gap={16} data-testid="upload-settings">
      <Flex gap={16} wrap align="flex-start">
        <Flex vertical gap={16} style={{ flex: '1 1 360px', minWidth: 0, maxWidth: 560 }}>
          <Card size="small" title={t('knowledge.chunking.title')}>
            <ChunkingForm value={chunking} onChange={setChunking} />
          </Card>
          <TableModeFields
            sheets={sheets}
            values={tables}
            onChange={(unitId, value) => setTables((current) => ({ ...current, [unitId]: value }))}
          />
        </Flex>
        <div style={{ flex: '1 1 420px', minWidth: 0 }}>
          <ChunkPreview units={units} chunking={chunkingBody} tableModeOf={tableModeOf} />
        </div>
      </Flex>
      {error ? <Alert type="error" showIcon title={error} data-testid="start-error" /> : null}
      <Flex justify="space-between" align="center" gap={8} wrap>
        <Typography.Text type="secondary" data-testid="start-summary">
          {t('knowledge.upload.startSummary', { count: units.length })}
        </Typography.Text>
        <Flex gap={8}>
          {onBack ? (
            <Button onClick={onBack} disabled={starting} data-testid="upload-back">
              {t('knowledge.upload.back')}
            </Button>
          ) : null}
          <Button
            type="primary"
            icon={<PlayCircleOutlined />}
            disabled={invalid || units.length === 0}
            loading={starting}
            onClick={() => void start()}
            data-testid="start-indexing"
          >
            {t('knowledge.upload.start')}
          </Button>
        </Flex>
      </Flex>
    </Flex>
  );
}
