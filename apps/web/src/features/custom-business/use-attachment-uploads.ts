import {
  ATTACHMENT_MAX_COUNT,
  ATTACHMENT_NAME_HEADER,
  attachmentUpload,
  type CustomBusinessAttachment,
} from '@athena/contract';
import { useCallback, useEffect, useRef, useState } from 'react';
import { errorText } from '../../lib/api-client.ts';
import { currentLocale } from '../../lib/i18n.ts';
import { isAborted, upload } from '../../lib/upload-client.ts';
import { contractMessage, precheckFile } from './form-rules.ts';

export interface UploadItem {
  key: string;
  name: string;
  size: number;
  status: 'uploading' | 'done' | 'error';
  percent: number;
  error?: string;
  result?: CustomBusinessAttachment;
}

let sequence = 0;

/**
 * The attachments of the form being filled in: each file is checked, then uploads at once with
 * its own progress; failed ones show why and can be removed. Files that failed do not count
 * towards the limit of five.
 */
export function useAttachmentUploads() {
  const [items, setItems] = useState<UploadItem[]>([]);
  const [notice, setNotice] = useState<string | null>(null);
  const aborts = useRef(new Map<string, () => void>());
  const live = useRef(0);

  const patch = useCallback((key: string, change: Partial<UploadItem>) => {
    setItems((current) => current.map((item) => (item.key === key ? { ...item, ...change } : item)));
  }, []);

  // Leaving the form stops what is still running.
  useEffect(() => {
    const running = aborts.current;
    return () => {
      for (const abort of running.values()) abort();
    };
  }, []);

  const add = async (files: File[]) => {
    const language = currentLocale();
    setNotice(null);
    const room = ATTACHMENT_MAX_COUNT - live.current;
    if (files.length > room) setNotice(contractMessage('ATTACHMENTS_TOO_MANY', language));
    for (const file of files.slice(0, Math.max(0, room))) {
      const key = `f${++sequence}`;
      const head = new Uint8Array(await file.slice(0, 8).arrayBuffer());
      const problem = precheckFile(file, head, language);
      const item: UploadItem = {
        key,
        name: file.name,
        size: file.size,
        status: problem ? 'error' : 'uploading',
        percent: 0,
      };
      if (problem) {
        setItems((current) => [...current, { ...item, error: problem }]);
        continue;
      }
      live.current += 1;
      setItems((current) => [...current, item]);
      // The server decides the type by content, so the browser's guess is not sent.
      const handle = upload(attachmentUpload, file, {
        headers: { [ATTACHMENT_NAME_HEADER]: encodeURIComponent(file.name) },
        // 100 only once the server has answered.
        onProgress: (percent) => patch(key, { percent: Math.min(99, Math.floor(percent)) }),
      });
      aborts.current.set(key, handle.abort);
      handle.promise
        .then(
          (result) => patch(key, { status: 'done', percent: 100, result }),
          (error: unknown) => {
            live.current -= 1;
            if (isAborted(error)) return;
            patch(key, { status: 'error', error: errorText(error, currentLocale()) });
          },
        )
        .finally(() => aborts.current.delete(key));
    }
  };

  const remove = (key: string) => {
    const item = items.find((entry) => entry.key === key);
    const abort = aborts.current.get(key);
    if (abort) abort();
    else if (item?.status === 'done') live.current -= 1;
    setItems((current) => current.filter((entry) => entry.key !== key));
    setNotice(null);
  };

  const reset = () => {
    for (const abort of aborts.current.values()) abort();
    live.current = 0;
    setItems([]);
    setNotice(null);
  };

  return {
    items,
    notice,
    add,
    remove,
    reset,
    uploading: items.some((item) => item.status === 'uploading'),
    full: live.current >= ATTACHMENT_MAX_COUNT,
    ids: items.flatMap((item) => (item.result ? [item.result.id] : [])),
  };
}

export type AttachmentUploads = ReturnType<typeof useAttachmentUploads>;
