import { Flex, Typography } from 'antd';
import { CopyButton } from '../../agents/copy-button.tsx';

/** A sample to read and copy. */
export function CodeBlock({ code, testId }: { code: string; testId?: string }) {
  return (
    <Flex gap={8} align="flex-start">
      <Typography.Paragraph
        data-testid={testId}
        style={{
          flex: 1,
          minWidth: 0,
          margin: 0,
          padding: '8px 10px',
          background: '#f6f7f9',
          borderRadius: 6,
          fontFamily: 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace',
          fontSize: 12,
          whiteSpace: 'pre-wrap',
          wordBreak: 'break-all',
        }}
      >
        {code}
      </Typography.Paragraph>
      <CopyButton text={code} size="small" />
    </Flex>
  );
}
