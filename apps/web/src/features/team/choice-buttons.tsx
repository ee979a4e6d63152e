import { Button, Space } from 'antd';

interface Props<T extends string> {
  label: string;
  value: T;
  options: { value: T; label: string; testId: string }[];
  onChange: (value: T) => void;
}

/**
 * A small single-choice button group (radio semantics). Not antd Radio.Group: it imports Form
 * internals that the login form's chunk holds, and sharing them splits one more chunk onto the
 * budgeted /login path.
 */
export function ChoiceButtons<T extends string>({ label, value, options, onChange }: Props<T>) {
  return (
    <Space.Compact role="radiogroup" aria-label={label}>
      {options.map((option) => {
        const selected = option.value === value;
        return (
          <Button
            key={option.value}
            role="radio"
            aria-checked={selected}
            color={selected ? 'primary' : 'default'}
            variant="outlined"
            style={selected ? { zIndex: 1 } : undefined}
            onClick={() => onChange(option.value)}
            data-testid={option.testId}
            data-selected={selected}
          >
            {option.label}
          </Button>
        );
      })}
    </Space.Compact>
  );
}
