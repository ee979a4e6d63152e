import { Flex } from 'antd';
import { OperatorLookup } from './operator-lookup.tsx';
import { PlatformModels } from './platform-models.tsx';

/** Platform operators only (platformModels says is_operator): the catalogue, lookups, refunds, corrections. */
export function OperatorTab({ spaceId }: { spaceId: string }) {
  return (
    <Flex vertical gap={16} data-testid="operator-tab">
      <PlatformModels spaceId={spaceId} />
      <OperatorLookup />
    </Flex>
  );
}
