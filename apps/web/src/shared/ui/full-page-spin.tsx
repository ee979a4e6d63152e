import { Flex, Spin } from 'antd';

/** Centered spinner while a page's code or the session loads. */
export function FullPageSpin({ minHeight = '60vh' }: { minHeight?: string | number }) {
  return (
    <Flex align="center" justify="center" style={{ minHeight }} data-testid="page-loading">
      <Spin size="large" />
    </Flex>
  );
}
