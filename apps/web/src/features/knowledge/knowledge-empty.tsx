import { DatabaseOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { FirstUseEmpty } from '../../shared/ui/first-use-empty.tsx';

/** No base in the space yet: what a knowledge base is for and the steps to a useful one. */
export function KnowledgeEmpty({ onCreate }: { onCreate: (() => void) | null }) {
  const { t } = useTranslation();
  return (
    <FirstUseEmpty
      icon={<DatabaseOutlined />}
      title={t('knowledge.empty.title')}
      text={t('knowledge.empty.text')}
      steps={[t('knowledge.empty.step1'), t('knowledge.empty.step2'), t('knowledge.empty.step3')]}
      createLabel={t('knowledge.create')}
      onCreate={onCreate}
      testId="knowledge-empty"
    />
  );
}
