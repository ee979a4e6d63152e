import { Button, Flex, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { PROVIDER_PRESETS, type ProviderPreset } from './presets.ts';

interface Props {
  onPick: (preset: ProviderPreset) => void;
  selected?: ProviderPreset['id'];
  /** Large buttons also show each provider's host (the empty state); small ones only the name (the form). */
  size?: 'small' | 'large';
  testIdPrefix: string;
}

/** One button per common provider; picking one fills the request address. */
export function PresetButtons({ onPick, selected, size = 'small', testIdPrefix }: Props) {
  const { t } = useTranslation();
  return (
    <Flex wrap gap={size === 'large' ? 8 : 6} justify={size === 'large' ? 'center' : 'flex-start'}>
      {PROVIDER_PRESETS.map((preset) => (
        <Button
          key={preset.id}
          size={size === 'large' ? 'middle' : 'small'}
          color={selected === preset.id ? 'primary' : 'default'}
          variant="outlined"
          onClick={() => onPick(preset)}
          data-testid={`${testIdPrefix}-${preset.id}`}
          style={size === 'large' ? { height: 'auto', padding: '6px 14px' } : undefined}
        >
          {size === 'large' ? (
            <Flex vertical align="flex-start">
              <span>{t(`authCenter.presets.${preset.id}`)}</span>
              <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                {new URL(preset.baseUrl).host}
              </Typography.Text>
            </Flex>
          ) : (
            t(`authCenter.presets.${preset.id}`)
          )}
        </Button>
      ))}
    </Flex>
  );
}
