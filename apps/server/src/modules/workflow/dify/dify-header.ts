import { AppError } from '../../../platform/http/app-error.ts';
import { list, type Rec, rec, str } from './values.ts';

/** The DSL versions Dify has written so far (0.1.0 in mid-2024 to 0.5.x); a later one may mean what we cannot know. */
const KNOWN_VERSION = /^0\.[1-5](\.\d{1,3})?$/;
const MODES = ['workflow', 'advanced-chat'];

/**
 * Refuses what is not a Dify workflow we can read: another kind of file, a chat or agent app
 * (their settings are not a graph), or a DSL version we do not know.
 */
export function checkDifyHeader(doc: Rec) {
  const kind = str(doc.kind);
  if (kind !== 'app')
    throw new AppError('WORKFLOW_IMPORT_INVALID', {
      detail: kind
        ? `kind "${kind.slice(0, 40)}" is not a Dify app (kind: app).`
        : 'it is not a Dify DSL file (no kind: app).',
    });
  const version = str(doc.version);
  if (!version) throw new AppError('WORKFLOW_IMPORT_INVALID', { detail: 'the Dify DSL file has no version.' });
  if (!KNOWN_VERSION.test(version))
    throw new AppError('WORKFLOW_IMPORT_VERSION_UNSUPPORTED', { version: version.slice(0, 40) });
  const mode = str(rec(doc.app).mode);
  if (!MODES.includes(mode))
    throw new AppError('WORKFLOW_IMPORT_INVALID', {
      detail: `the Dify app mode "${mode.slice(0, 40) || '-'}" is not a workflow (workflow or advanced-chat).`,
    });
  if (!Array.isArray(rec(rec(doc.workflow).graph).nodes) || list(rec(rec(doc.workflow).graph).nodes).length === 0)
    throw new AppError('WORKFLOW_IMPORT_INVALID', { detail: 'the Dify file has no workflow graph.' });
}
