import {
  CHAT_LIMITS,
  displayTypeOfKind,
  type IngestMessage,
  ingestBatchSchema,
  WORKFLOW_TRIGGER_LIMITS,
} from '@athena/contract';
import { and, eq, isNull, lt } from 'drizzle-orm';
import { decryptSecret, sha256 } from '../../platform/crypto.ts';
import type { Db } from '../../platform/db/database.ts';
import { AppError } from '../../platform/http/app-error.ts';
import { bodyRefusal } from '../../platform/http/public-answers.ts';
import { verifyWebhookSignature } from '../../platform/http/webhook-signature.ts';
import { spaces } from '../space/space.schema.ts';
import { chatIngestSignatures, chatSceneSettings } from './chat-history.schema.ts';
import { type IncomingMessage, type StoreResult, storeMessages } from './message-store.ts';

/** The same five minutes either way as workflow webhooks: one signing scheme for every sender. */
const TOLERANCE_SECONDS = WORKFLOW_TRIGGER_LIMITS.signatureToleranceSeconds;

/**
 * The signed ingest endpoint of the channels other than WeCom (docs/chat-ingest.md): a batch is
 * checked whole, signature first, and stored whole or refused whole.
 */
export function createIngestService(deps: {
  db: Db;
  masterKey: Buffer;
  now: () => Date;
  onStored: (scene: { spaceId: string; sceneId: number }, result: StoreResult) => void | Promise<void>;
  /**
   * Batches stored at once. Where the database runs one statement at a time, one: every other
   * request's statements then wait for at most one batch, not for all that arrived.
   */
  concurrentBatches: number;
}) {
  const { db, now } = deps;
  const slots = createSlots(deps.concurrentBatches);

  /**
   * The endpoint behind an ingest id. A dissolved team's endpoints answer as if turned off: read
   * with the team's state in the same query, so there is no cache for any process to drop.
   */
  async function endpointOf(ingestId: string) {
    if (!/^[A-Za-z0-9_-]{1,64}$/.test(ingestId)) return null;
    const [found] = await db
      .select({ row: chatSceneSettings })
      .from(chatSceneSettings)
      .innerJoin(spaces, eq(spaces.id, chatSceneSettings.spaceId))
      .where(and(eq(chatSceneSettings.ingestId, ingestId), isNull(spaces.dissolvedAt)));
    const row = found?.row;
    return row?.ingestSecretSealed ? { ...row, ingestSecretSealed: row.ingestSecretSealed } : null;
  }

  /** The endpoint of a request whose signature is right and fresh; refused otherwise. */
  async function signedEndpoint(ingestId: string, signature: string | undefined, raw: Buffer) {
    const endpoint = await endpointOf(ingestId);
    if (!endpoint) throw new AppError('CHAT_INGEST_NOT_FOUND');
    const secret = decryptSecret(deps.masterKey, endpoint.ingestSecretSealed);
    const verdict = verifyWebhookSignature(signature, secret, raw, now().getTime(), TOLERANCE_SECONDS);
    if (!verdict.ok) {
      throw new AppError(
        verdict.reason === 'stale' ? 'CHAT_INGEST_SIGNATURE_EXPIRED' : 'CHAT_INGEST_SIGNATURE_INVALID',
      );
    }
    return { endpoint, verdict };
  }

  /**
   * A signed request to the scene's ingest URL (`route` '' for messages, '/behaviour' for behaviour
   * events): the signature checked, `handle` run in a batch slot, then the signature remembered,
   * so a request refused for any reason may be sent again as it was, and a replay is refused. What
   * `handle` stores is unique by the sender's ids, so a replay racing the first copy stores nothing
   * twice. The remembered key names the route: a body signed for one route is no replay of another.
   */
  async function acceptSigned<T>(
    ingestId: string,
    route: string,
    signature: string | undefined,
    raw: Buffer,
    handle: (scene: { spaceId: string; sceneId: number }, raw: Buffer) => Promise<T>,
  ): Promise<T> {
    const { endpoint, verdict } = await signedEndpoint(ingestId, signature, raw);
    const answer = await slots.run(() => handle({ spaceId: endpoint.spaceId, sceneId: endpoint.sceneId }, raw));
    const expiresAt = new Date((verdict.timestamp + TOLERANCE_SECONDS + 60) * 1000);
    const fresh = await db
      .insert(chatIngestSignatures)
      .values({ signature: sha256(`${ingestId}${route}:${verdict.digest}`), expiresAt })
      .onConflictDoNothing()
      .returning({ signature: chatIngestSignatures.signature });
    if (fresh.length === 0) throw new AppError('CHAT_INGEST_REPLAYED');
    return answer;
  }

  return {
    acceptSigned,

    async accept(ingestId: string, signature: string | undefined, raw: Buffer) {
      const { scene, result } = await acceptSigned(ingestId, '', signature, raw, async (scene, body) => {
        const messages = parseBatch(body).map((message) => incomingOf(message));
        return { scene, result: await storeMessages(db, scene.spaceId, scene.sceneId, messages) };
      });
      await db.update(chatSceneSettings).set({ lastIngestAt: now() }).where(eq(chatSceneSettings.ingestId, ingestId));
      await deps.onStored({ spaceId: scene.spaceId, sceneId: scene.sceneId }, result);
      return { stored: result.stored, duplicates: result.duplicates };
    },

    async forgetExpiredSignatures() {
      await db.delete(chatIngestSignatures).where(lt(chatIngestSignatures.expiresAt, now()));
    },
  };
}

export type IngestService = ReturnType<typeof createIngestService>;

function parseBatch(raw: Buffer): IngestMessage[] {
  let body: unknown;
  try {
    body = JSON.parse(raw.toString('utf8'));
  } catch {
    throw new AppError('CHAT_INGEST_BODY_INVALID', { detail: 'body: not JSON' });
  }
  // Counted before the messages are checked one by one: a huge batch costs nothing to refuse.
  const messages = (body as { messages?: unknown } | null)?.messages;
  if (Array.isArray(messages) && messages.length > CHAT_LIMITS.ingestBatch) {
    throw new AppError('CHAT_INGEST_BATCH_TOO_LARGE', { max: CHAT_LIMITS.ingestBatch });
  }
  const parsed = ingestBatchSchema.safeParse(body);
  if (!parsed.success)
    throw new AppError('CHAT_INGEST_BODY_INVALID', { detail: bodyRefusal(parsed.error.issues[0]).detail });
  return parsed.data.messages;
}

function incomingOf(message: IngestMessage): IncomingMessage {
  return {
    sourceMsgId: message.msg_id,
    conversation: {
      sourceId: message.conversation.id,
      chatType: message.conversation.chat_type,
      title: message.conversation.name,
      channelId: message.channel?.id ?? '',
      channelName: message.channel?.name ?? '',
    },
    customer: message.customer
      ? { sourceId: message.customer.id, name: message.customer.name, avatarUrl: message.customer.avatar_url }
      : null,
    sendType: message.send_type,
    senderName: message.sender_name,
    displayType: displayTypeOfKind(message.kind),
    sourceKind: String(message.kind),
    content: message.content,
    payload: message.payload,
    sentAt: new Date(message.sent_at),
    recalled: message.recalled,
    status: message.send_type === 'user' ? 'received' : 'sent',
  };
}

/** At most `size` tasks at once; the others wait their turn in order. */
function createSlots(size: number) {
  let busy = 0;
  const waiting: (() => void)[] = [];
  const release = () => {
    const next = waiting.shift();
    if (next) next();
    else busy -= 1;
  };
  return {
    async run<T>(task: () => Promise<T>): Promise<T> {
      if (busy >= size) await new Promise<void>((resolve) => waiting.push(resolve));
      else busy += 1;
      try {
        return await task();
      } finally {
        release();
      }
    },
  };
}
