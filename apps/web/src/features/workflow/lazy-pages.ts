// The workflow pages around the editor (list, groups, templates, run history) load as one chunk:
// they share most of their code. The canvas editor is its own chunk (editor/).
export { WorkflowRunsPage } from './runs-page.tsx';
export { WorkflowTemplatesPage } from './templates-page.tsx';
export { WorkflowGroupPage, WorkflowsPage } from './workflows-page.tsx';
