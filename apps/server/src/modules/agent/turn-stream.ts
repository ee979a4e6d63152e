import type { agentStreams, Language } from '@athena/contract';
import type { FastifyReply } from 'fastify';
import { openEventStream } from '../../platform/http/sse.ts';
import type { ChatTurnCommand, PreparedTurn } from './chat-turn.command.ts';

/**
 * Streams a prepared turn as the contract's chat events (the playground and the share page). The
 * stream is ended whatever happens: a fault the turn did not handle is logged and still closes
 * the connection, which the client reports as cut short.
 */
export async function streamTurn(
  reply: FastifyReply,
  descriptor: typeof agentStreams.chat | typeof agentStreams.shareChat,
  turns: ChatTurnCommand,
  turn: PreparedTurn,
  language: Language,
) {
  const stream = openEventStream(reply, descriptor);
  try {
    await turns.run(turn, { signal: stream.signal, language, emit: stream.emit });
  } catch (error) {
    reply.log.error({ err: error, agent: turn.agent.id }, 'chat turn failed after its stream opened');
  } finally {
    stream.end();
  }
}
