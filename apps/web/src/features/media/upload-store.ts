import { create } from 'zustand';

export type UploadStatus = 'queued' | 'uploading' | 'paused' | 'failed' | 'done' | 'canceled';

/** One file of the upload panel. The File itself stays here so pause, resume and retry need nothing else. */
export interface UploadEntry {
  id: string;
  file: File;
  libraryId: string;
  name: string;
  size: number;
  sent: number;
  status: UploadStatus;
  /** Bytes per second, smoothed; null until measured. */
  speed: number | null;
  error: string | null;
  /** True when it continues an earlier attempt (before a reload, or in a tab since closed). */
  resumed: boolean;
  itemId: string | null;
}

/** An upload a reload or a closed tab interrupted: tus remembers where it stopped, not the file. */
export interface UnfinishedUpload {
  /** tus's localStorage key of it. */
  key: string;
  uploadUrl: string | null;
  name: string;
  libraryId: string;
  size: number;
  createdAt: string;
}

interface UploadState {
  entries: UploadEntry[];
  unfinished: UnfinishedUpload[];
  setUnfinished: (list: UnfinishedUpload[]) => void;
  forgetUnfinished: (files: { name: string; libraryId: string }[]) => void;
  add: (entries: UploadEntry[]) => void;
  patch: (id: string, change: Partial<UploadEntry>) => void;
  /** Takes finished, failed and canceled rows off the panel. */
  clearFinished: () => void;
  remove: (id: string) => void;
}

export const useUploadStore = create<UploadState>((set) => ({
  entries: [],
  unfinished: [],
  setUnfinished: (unfinished) => set({ unfinished }),
  forgetUnfinished: (files) =>
    set((s) => ({
      unfinished: s.unfinished.filter((u) => !files.some((f) => f.name === u.name && f.libraryId === u.libraryId)),
    })),
  add: (entries) => set((s) => ({ entries: [...s.entries, ...entries] })),
  patch: (id, change) => set((s) => ({ entries: s.entries.map((e) => (e.id === id ? { ...e, ...change } : e)) })),
  clearFinished: () =>
    set((s) => ({ entries: s.entries.filter((e) => e.status !== 'done' && e.status !== 'canceled') })),
  remove: (id) => set((s) => ({ entries: s.entries.filter((e) => e.id !== id) })),
}));

export const isActive = (status: UploadStatus) => status === 'queued' || status === 'uploading';
