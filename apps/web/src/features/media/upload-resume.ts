import { MEDIA_UPLOAD_METADATA } from '@athena/contract';
import { FINGERPRINT_PREFIX, tusHeaders } from './upload-runner.ts';
import { type UnfinishedUpload, useUploadStore } from './upload-store.ts';

/** The server drops an unfinished upload 24 hours after it began (docs/media.md). */
const EXPIRES_MS = 24 * 60 * 60 * 1000;

const prefixOf = (spaceId: string) => `tus::${FINGERPRINT_PREFIX}/${spaceId}/`;

/**
 * Finds this space's uploads that a reload or a closed tab interrupted (tus keeps their address in
 * localStorage, keyed by our fingerprint). A page cannot reopen a file by itself, so the panel lists
 * them and asks for the file again; the upload then continues from the server's offset.
 */
export async function loadUnfinished(spaceId: string): Promise<void> {
  const prefix = prefixOf(spaceId);
  const any = Object.keys(localStorage).some((key) => key.startsWith(prefix));
  if (!any) {
    useUploadStore.getState().setUnfinished([]);
    return;
  }
  const tus = await import('tus-js-client');
  const storage = tus.defaultOptions.urlStorage;
  const all = await storage.findAllUploads();
  const list: UnfinishedUpload[] = [];
  for (const upload of all) {
    if (!upload.urlStorageKey.startsWith(prefix)) continue;
    if (Date.now() - Date.parse(upload.creationTime) > EXPIRES_MS) {
      await storage.removeUpload(upload.urlStorageKey);
      continue;
    }
    list.push({
      key: upload.urlStorageKey,
      uploadUrl: upload.uploadUrl,
      name: upload.metadata[MEDIA_UPLOAD_METADATA.name] ?? '',
      libraryId: upload.metadata[MEDIA_UPLOAD_METADATA.library] ?? '',
      size: upload.size ?? 0,
      createdAt: upload.creationTime,
    });
  }
  // Files of this tab already on their way are not "interrupted".
  const running = useUploadStore.getState().entries;
  useUploadStore
    .getState()
    .setUnfinished(list.filter((u) => !running.some((e) => e.name === u.name && e.libraryId === u.libraryId)));
}

/** Gives up an interrupted upload: the server frees its reserved space, the browser forgets it. */
export async function discardUnfinished(upload: UnfinishedUpload): Promise<void> {
  const tus = await import('tus-js-client');
  if (upload.uploadUrl) {
    // Already expired or removed on the server: nothing to free there.
    await tus.Upload.terminate(upload.uploadUrl, { headers: tusHeaders() }).catch(() => undefined);
  }
  await tus.defaultOptions.urlStorage.removeUpload(upload.key);
  const { unfinished, setUnfinished } = useUploadStore.getState();
  setUnfinished(unfinished.filter((u) => u.key !== upload.key));
}
