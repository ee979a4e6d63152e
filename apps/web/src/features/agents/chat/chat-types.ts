import type { AgentToolStep, ChatMessage, ChatStreamDescriptor, Citation, StreamBody } from '@athena/contract';

/**
 * A message as the chat shows it. `unsent`: the server refused the question before answering
 * (no key, rate limit…), so it exists only here, with the reason in the chat's notice.
 */
export type ChatItemStatus = ChatMessage['status'] | 'unsent';

export interface ChatItem {
  /** Stable React key; the server id when known. */
  key: string;
  role: ChatMessage['role'];
  content: string;
  status: ChatItemStatus;
  /** Why the answer failed, already in words for the reader. */
  errorText: string | null;
  /** Knowledge-base sources the answer cites as [n] (assistant answers only; often none). */
  citations: Citation[];
  /** MCP tools the answer called, in the order they started (assistant answers only; often none). */
  steps: AgentToolStep[];
}

/** A refusal before any answer started, shown in the chat with a way to try again. */
export interface ChatNotice {
  message: string;
  code: number | string | undefined;
  /** What "try again" repeats. */
  retry: { kind: 'send'; text: string } | { kind: 'regenerate' } | null;
}

/** What the chat sends; the page turns it into its own request body (playground or share page). */
export interface TurnRequest {
  conversationId?: string;
  message?: string;
  regenerate?: boolean;
}

/** Which chat stream of the contract a page talks to, and its request body for a turn. */
export interface ChatTransport<S extends ChatStreamDescriptor = ChatStreamDescriptor> {
  stream: S;
  body: (request: TurnRequest) => StreamBody<S>;
}
