import { MoreOutlined } from '@ant-design/icons';
import { Button, Dropdown, type MenuProps } from 'antd';

/**
 * The "…" button of a card or a list row and its menu. Neither the button nor an entry lets the
 * click through to the row or card underneath, which would open it as well.
 */
export function MoreMenu({
  items,
  onSelect,
  label,
  testId,
  loading,
}: {
  items: MenuProps['items'];
  onSelect: (key: string) => void;
  label: string;
  testId: string;
  loading?: boolean;
}) {
  return (
    <Dropdown
      trigger={['click']}
      menu={{
        items,
        onClick: ({ key, domEvent }) => {
          domEvent.stopPropagation();
          onSelect(key);
        },
      }}
    >
      <Button
        type="text"
        size="small"
        icon={<MoreOutlined />}
        loading={loading}
        aria-label={label}
        data-testid={testId}
        onClick={(event) => event.stopPropagation()}
      />
    </Dropdown>
  );
}
