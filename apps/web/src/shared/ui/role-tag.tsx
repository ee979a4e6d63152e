import { ROLE_NAMES, type Role } from '@athena/contract';
import { Tag } from 'antd';
import { useTranslation } from 'react-i18next';

const COLORS = { creator: 'gold', admin: 'blue', member: 'default' } as const;

/** My role in a space, localised: creator / admin / member. */
export function RoleTag({ role, testId }: { role: Role; testId?: string }) {
  const { t } = useTranslation();
  const name = ROLE_NAMES[role];
  return (
    <Tag color={COLORS[name]} data-testid={testId} data-role={name} style={{ marginInlineEnd: 0 }}>
      {t(`roles.${name}`)}
    </Tag>
  );
}
