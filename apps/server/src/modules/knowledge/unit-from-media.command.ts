import { type Chunking, KNOWLEDGE_MAX_FILE_BYTES } from '@athena/contract';
import { type AuthContext, authorize } from '../../platform/auth-guard.ts';
import { AppError } from '../../platform/http/app-error.ts';
import type { OpenMediaDocument } from '../media/index.ts';
import type { UnitService } from './unit.service.ts';

// Kinds the media module sniffed as something no knowledge parser reads; refused without reading.
const NOT_DOCUMENTS = new Set(['video', 'audio', 'image']);
const AUTO: Chunking = { mode: 'auto' };

/**
 * A media library document into a knowledge base (docs/knowledge.md, "From a media library"): the
 * same checks and unit as an upload of that file, then queued at once with automatic chunking.
 */
/** Media's port (passed in by app.ts): a live item of the space with its bytes read on demand. */
export function createUnitFromMedia(deps: { units: UnitService; openMediaDocument: OpenMediaDocument }) {
  const tooLarge = () => new AppError('FILE_SIZE_EXCEEDED');
  return async (ctx: AuthContext, body: { knowledge_id: string; media_item_id: string }) => {
    const space = authorize(ctx, 'member.view');
    // The upload's rule first, so a caller who may not add files learns nothing about the item.
    await deps.units.checkUploadTarget(ctx, body.knowledge_id);
    const item = await deps.openMediaDocument(space.id, body.media_item_id);
    if (NOT_DOCUMENTS.has(item.kind)) throw new AppError('UNSUPPORTED_FILE_FORMAT');
    if (item.size > KNOWLEDGE_MAX_FILE_BYTES) throw tooLarge();
    const bytes = await item.read(KNOWLEDGE_MAX_FILE_BYTES, tooLarge);
    const unit = await deps.units.upload(ctx, body.knowledge_id, item.name, bytes);
    const started = await deps.units.start(ctx, { ids: [unit.id], chunking: AUTO, table_mode: null });
    return started.items[0] ?? unit;
  };
}
