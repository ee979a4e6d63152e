import { RobotOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { FirstUseEmpty } from '../../shared/ui/first-use-empty.tsx';

/** No agent in the space yet: what an agent is and the three steps to a working one. */
export function AgentsEmpty({ onCreate }: { onCreate: (() => void) | null }) {
  const { t } = useTranslation();
  return (
    <FirstUseEmpty
      icon={<RobotOutlined />}
      title={t('agents.empty.title')}
      text={t('agents.empty.text')}
      steps={[t('agents.empty.step1'), t('agents.empty.step2'), t('agents.empty.step3')]}
      createLabel={t('agents.create.button')}
      onCreate={onCreate}
      testId="agents-empty"
    />
  );
}
