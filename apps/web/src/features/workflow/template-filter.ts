import type { WorkflowTemplate, WorkflowTemplateCategory } from '@athena/contract';

/** Templates of a category ('' for all) whose name or description holds the keyword, ignoring case. */
export function filterTemplates(
  items: readonly WorkflowTemplate[],
  category: WorkflowTemplateCategory | '',
  keyword: string,
): WorkflowTemplate[] {
  const needle = keyword.trim().toLocaleLowerCase();
  return items.filter(
    (item) =>
      (category === '' || item.category === category) &&
      (needle === '' || `${item.name}\n${item.description}`.toLocaleLowerCase().includes(needle)),
  );
}

/** The categories that have templates, in the contract's order, so the filter offers no empty choice. */
export function categoriesOf(
  items: readonly WorkflowTemplate[],
  order: readonly WorkflowTemplateCategory[],
): WorkflowTemplateCategory[] {
  const present = new Set(items.map((item) => item.category));
  return order.filter((category) => present.has(category));
}
