import { and, eq, inArray, lt, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { newToken } from '../../platform/crypto.ts';
import type { Db } from '../../platform/db/database.ts';
import { extensionFor, type ObjectStorage } from '../../platform/storage.ts';
import { WecomApiError } from '../../platform/wecom/kf-api.ts';
import { chatMessages } from './chat-history.schema.ts';
import { sniffMediaType } from './media-type.ts';
import type { VoiceTranscoder } from './voice-transcoder.ts';
import type { WecomClients } from './wecom-clients.ts';

/** WeCom's largest media is a 20 MB file; a bigger answer is refused without being read on. */
export const MAX_MEDIA_BYTES = 25 * 1024 * 1024;
/** WeCom keeps a message's media this long; after it, a download cannot succeed. */
const MEDIA_LIFETIME_MS = 3 * 86_400_000;
/** Pending downloads one sweep takes; the next sweep takes the rest. */
const SWEEP_BATCH = 50;
/** A download this recent is still in the hands of the process that stored the message. */
const SWEEP_GRACE_MS = 60_000;

type MediaRow = Pick<
  typeof chatMessages.$inferSelect,
  'id' | 'spaceId' | 'sceneId' | 'conversationId' | 'sourceMediaId' | 'payload' | 'createdAt'
>;

/**
 * Copies the media of WeCom messages (images, voice, video, files) into our storage right after
 * the pull that brought them, before WeCom's three days run out (docs/wecom.md, "Media"). A
 * scheduled sweep picks up what a crash or an outage left pending; a download that cannot succeed
 * is marked failed with its reason, which the thread shows in place of the media.
 */
export function createWecomMedia(deps: {
  db: Db;
  clients: WecomClients;
  storage: ObjectStorage;
  now: () => Date;
  log: FastifyBaseLogger;
  onChanged: (spaceId: string, sceneId: number, conversationIds: number[]) => void;
  /** Voice (AMR, which no browser plays) is stored as WAV when it can be decoded. */
  voice: Pick<VoiceTranscoder, 'toWav'>;
}) {
  const { db } = deps;
  let queue: Promise<void> = Promise.resolve();
  let queued = 0;

  const columns = {
    id: chatMessages.id,
    spaceId: chatMessages.spaceId,
    sceneId: chatMessages.sceneId,
    conversationId: chatMessages.conversationId,
    sourceMediaId: chatMessages.sourceMediaId,
    payload: chatMessages.payload,
    createdAt: chatMessages.createdAt,
  };

  async function fail(row: MediaRow, reason: string) {
    await db
      .update(chatMessages)
      .set({ mediaState: 'failed', mediaError: reason.slice(0, 300) })
      .where(eq(chatMessages.id, row.id));
  }

  async function download(row: MediaRow) {
    const account = await deps.clients.accountOf({ spaceId: row.spaceId, sceneId: row.sceneId });
    if (!account || !row.sourceMediaId) return fail(row, 'the WeCom account is no longer connected');
    if (deps.now().getTime() - row.createdAt.getTime() > MEDIA_LIFETIME_MS) return fail(row, 'expired at WeCom');
    try {
      const file = await deps.clients.clientOf(account).downloadMedia(row.sourceMediaId, MAX_MEDIA_BYTES);
      let bytes = file.bytes;
      let type = sniffMediaType(bytes);
      const voice = type === 'audio/amr' ? await deps.voice.toWav(bytes) : null;
      if (voice) {
        bytes = Buffer.from(voice.wav);
        type = 'audio/wav';
      }
      const key = `chat/${row.spaceId}/${newToken()}.${extensionFor(type)}`;
      await deps.storage.put(key, bytes, type);
      const payload = {
        ...row.payload,
        file_size: bytes.length,
        ...(voice && row.payload.duration_s === undefined ? { duration_s: Math.round(voice.seconds) } : {}),
        ...(file.fileName && !row.payload.file_name ? { file_name: file.fileName.slice(0, 500) } : {}),
      };
      await db
        .update(chatMessages)
        .set({ mediaState: 'stored', mediaKey: key, mediaError: null, payload })
        .where(eq(chatMessages.id, row.id));
    } catch (error) {
      deps.log.warn({ err: error, message: row.id }, 'WeCom media download failed');
      // Members read the reason: WeCom's own words, never an internal error's.
      await fail(row, error instanceof WecomApiError ? error.message : 'the file could not be stored');
    }
    deps.onChanged(row.spaceId, row.sceneId, [row.conversationId]);
  }

  function enqueue(rows: MediaRow[]) {
    for (const row of rows) {
      queued += 1;
      queue = queue
        .then(() => download(row))
        .finally(() => {
          queued -= 1;
        });
    }
  }

  return {
    /** Downloads the pending media of these messages, one at a time, in the background. */
    async start(messageIds: number[]) {
      if (messageIds.length === 0) return;
      const rows = await db
        .select(columns)
        .from(chatMessages)
        .where(and(inArray(chatMessages.id, messageIds), eq(chatMessages.mediaState, 'pending')));
      enqueue(rows);
    },

    /** The scheduled sweep: pending downloads older than a minute (a crash, an outage) go again. */
    async sweep() {
      const rows = await db
        .select(columns)
        .from(chatMessages)
        .where(
          and(
            eq(chatMessages.mediaState, 'pending'),
            lt(chatMessages.createdAt, new Date(deps.now().getTime() - SWEEP_GRACE_MS)),
          ),
        )
        .orderBy(sql`created_at`)
        .limit(SWEEP_BATCH);
      for (const row of rows) await download(row);
    },

    /** Resolves when every queued download has finished (tests). */
    async idle() {
      while (queued > 0) await queue;
    },
  };
}

export type WecomMedia = ReturnType<typeof createWecomMedia>;
