/**
 * A share-page visitor is a random id this browser keeps (shareChatRequest.visitor_id), and per
 * link the conversation they were in, so a reload continues it. Kept apart from STORAGE_KEYS: these
 * belong to signed-out visitors, not to a session.
 */
const VISITOR_KEY = 'athena.shareVisitor';
const conversationKey = (code: string) => `athena.shareConversation.${code}`;

type KeyValueStorage = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;

const storage = (): KeyValueStorage | null => {
  try {
    return window.localStorage;
  } catch {
    return null; // storage disabled: the visitor still chats, just without memory
  }
};

function randomId(): string {
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  return `v-${Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('')}`;
}

let fallbackId: string | undefined;

/** This browser's visitor id (8–64 characters), created on first use. */
export function visitorId(store: KeyValueStorage | null = storage()): string {
  const saved = store?.getItem(VISITOR_KEY);
  if (saved && saved.length >= 8 && saved.length <= 64) return saved;
  const id = randomId();
  if (store) store.setItem(VISITOR_KEY, id);
  else fallbackId ??= id;
  return store ? id : (fallbackId as string);
}

export const savedConversation = (code: string) => storage()?.getItem(conversationKey(code)) ?? undefined;

export function saveConversation(code: string, id: string | undefined) {
  const store = storage();
  if (!store) return;
  if (id) store.setItem(conversationKey(code), id);
  else store.removeItem(conversationKey(code));
}
