/**
 * Data attributes for props objects that antd spreads onto an element (okButtonProps, onRow …),
 * where TypeScript's prop types do not list them.
 */
export const dataAttrs = (attrs: Record<`data-${string}`, string>): object => attrs;

export const testId = (id: string) => dataAttrs({ 'data-testid': id });
