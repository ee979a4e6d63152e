import { randomBytes } from 'node:crypto';
import { type Agent, parseAgentMcpToolRef } from '@athena/contract';
import { and, desc, eq, ilike, isNull, type SQL } from 'drizzle-orm';
import { type AuthContext, authorize } from '../../platform/auth-guard.ts';
import { type InvalidationBus, TaggedCache } from '../../platform/cache.ts';
import { isUuid } from '../../platform/crypto.ts';
import type { Db } from '../../platform/db/database.ts';
import { AppError } from '../../platform/http/app-error.ts';
import { users } from '../auth/auth.schema.ts';
import { spaceMembers, spaces } from '../space/space.schema.ts';
import { agents } from './agent.schema.ts';
import type { ReferenceRepo } from './references.repo.ts';

export type AgentService = ReturnType<typeof createAgentService>;
export type AgentRow = typeof agents.$inferSelect;

export interface AgentFields {
  name: string;
  avatar_url: string | null;
  description: string;
  system_prompt: string;
  opening_message: string;
  suggested_questions: string[];
  model_key_id: string | null;
  params: { temperature: number; max_tokens: number | null };
  attachments: { knowledge_ids: string[]; workflow_ids: string[]; mcp_tools: string[] };
}

const newPublicId = () => `agent-${randomBytes(9).toString('base64url')}`;

/** Agents of a space: everyone may create and use them; members edit and delete only their own. */
export function createAgentService(deps: {
  db: Db;
  bus: InvalidationBus;
  publicUrl: string;
  now: () => Date;
  /** Whether every one of these external MCP servers is this team's (mcp-client). */
  ownsMcpServers: (spaceId: string, serverIds: string[]) => Promise<boolean>;
  /** Checks the model and knowledge bases an agent names (references.repo.ts). */
  references: ReferenceRepo;
}) {
  const { db, bus, references } = deps;
  // Chat turns read the agent row each time; changes below publish `agent:<id>`.
  const forChat = new TaggedCache<AgentRow>(60_000);
  bus.subscribe((key) => (key === '*' ? forChat.clear() : forChat.invalidate(key)));
  const changed = (id: string) => bus.publish(`agent:${id}`);

  const rowsWithCreator = () =>
    db
      .select({ agent: agents, creator: { id: users.id, nickname: users.nickname }, membership: spaceMembers.userId })
      .from(agents)
      .innerJoin(users, eq(users.id, agents.createdBy))
      .leftJoin(spaceMembers, and(eq(spaceMembers.spaceId, agents.spaceId), eq(spaceMembers.userId, agents.createdBy)));

  type Joined = Awaited<ReturnType<ReturnType<typeof rowsWithCreator>['execute']>>[number];

  const shareUrl = (code: string | null) => (code ? `${deps.publicUrl.replace(/\/$/, '')}/share/${code}` : null);

  const toAgent = ({ agent, creator, membership }: Joined): Agent => ({
    id: agent.id,
    public_id: agent.publicId,
    name: agent.name,
    avatar_url: agent.avatarUrl,
    description: agent.description,
    system_prompt: agent.systemPrompt,
    opening_message: agent.openingMessage,
    suggested_questions: agent.suggestedQuestions,
    model_key_id: agent.modelKeyId,
    params: agent.params,
    attachments: agent.attachments,
    share: { enabled: agent.shareCode !== null, url: shareUrl(agent.shareCode) },
    // Removing a member keeps their agents; the list says they have left.
    created_by: { id: creator.id, nickname: creator.nickname, former_member: membership === null },
    created_at: agent.createdAt.toISOString(),
    updated_at: agent.updatedAt.toISOString(),
  });

  async function find(spaceId: string, id: string) {
    if (!isUuid(id)) throw new AppError('NOT_FOUND');
    const [row] = await rowsWithCreator()
      .where(and(eq(agents.id, id), eq(agents.spaceId, spaceId)))
      .limit(1);
    if (!row) throw new AppError('NOT_FOUND');
    return row;
  }

  const columnsOf = (fields: AgentFields) => ({
    name: fields.name,
    avatarUrl: fields.avatar_url,
    description: fields.description,
    systemPrompt: fields.system_prompt,
    openingMessage: fields.opening_message,
    suggestedQuestions: fields.suggested_questions,
    modelKeyId: fields.model_key_id && isUuid(fields.model_key_id) ? fields.model_key_id : null,
    params: fields.params,
    attachments: fields.attachments,
  });

  /**
   * The model key and knowledge bases an agent is given resolve inside the caller's space: another
   * team's id is refused exactly like a missing one. Ids the agent already holds are kept as they
   * are, even when their key or base has been deleted since (a chat skips them), so an older agent
   * stays editable.
   */
  async function checkReferences(spaceId: string, fields: AgentFields, current?: AgentRow) {
    const keyId = fields.model_key_id;
    if (keyId && keyId !== current?.modelKeyId && !(await references.hasModelKey(spaceId, keyId))) {
      throw new AppError('NOT_FOUND');
    }
    const held = new Set(current?.attachments.knowledge_ids ?? []);
    const added = fields.attachments.knowledge_ids.filter((id) => !held.has(id));
    if (added.length > 0 && !(await references.hasKnowledgeBases(spaceId, added))) throw new AppError('NOT_FOUND');
    // MCP tools the same way: a new one names a server of this team (its tool may come and go with
    // the server's list; a chat offers only the tools that are there).
    const heldTools = new Set(current?.attachments.mcp_tools ?? []);
    const addedTools = fields.attachments.mcp_tools.filter((ref) => !heldTools.has(ref));
    const servers = addedTools.map((ref) => parseAgentMcpToolRef(ref)?.serverId ?? '');
    if (servers.some((id) => !isUuid(id))) throw new AppError('BAD_REQUEST');
    if (servers.length > 0 && !(await deps.ownsMcpServers(spaceId, [...new Set(servers)]))) {
      throw new AppError('NOT_FOUND');
    }
  }

  /** The agent, after checking the caller may `edit`/`delete` it. */
  async function findForChange(ctx: AuthContext, id: string, action: 'agent.edit' | 'agent.delete') {
    const space = authorize(ctx, 'member.view');
    const row = await find(space.id, id);
    authorize(ctx, action, { isOwner: row.agent.createdBy === ctx.userId });
    return row;
  }

  return {
    find,
    toAgent,
    findForChange,

    /** The agent row a chat turn needs, cached; scoped by space like every other read. */
    async findForChat(spaceId: string, id: string) {
      const cached = forChat.get(id);
      if (cached && cached.spaceId === spaceId) return cached;
      const { agent } = await find(spaceId, id);
      forChat.set(id, agent, [`agent:${id}`]);
      return agent;
    },

    async list(ctx: AuthContext, keyword?: string) {
      const space = authorize(ctx, 'member.view');
      const conditions: SQL[] = [eq(agents.spaceId, space.id)];
      if (keyword) conditions.push(ilike(agents.name, `%${keyword.replace(/[\\%_]/g, '\\$&')}%`));
      const rows = await rowsWithCreator()
        .where(and(...conditions))
        .orderBy(desc(agents.updatedAt));
      return { items: rows.map(toAgent) };
    },

    async get(ctx: AuthContext, id: string) {
      const space = authorize(ctx, 'member.view');
      return toAgent(await find(space.id, id));
    },

    async create(ctx: AuthContext, fields: AgentFields) {
      const space = authorize(ctx, 'agent.create');
      await checkReferences(space.id, fields);
      const [row] = await db
        .insert(agents)
        .values({ spaceId: space.id, publicId: newPublicId(), createdBy: ctx.userId, ...columnsOf(fields) })
        .returning({ id: agents.id });
      return toAgent(await find(space.id, row.id));
    },

    async update(ctx: AuthContext, id: string, fields: AgentFields) {
      const { agent } = await findForChange(ctx, id, 'agent.edit');
      await checkReferences(agent.spaceId, fields, agent);
      await db
        .update(agents)
        .set({ ...columnsOf(fields), updatedAt: deps.now() })
        .where(eq(agents.id, agent.id));
      await changed(agent.id);
      return toAgent(await find(agent.spaceId, id));
    },

    async duplicate(ctx: AuthContext, id: string) {
      const space = authorize(ctx, 'agent.create');
      const { agent } = await find(space.id, id);
      const [row] = await db
        .insert(agents)
        .values({
          ...agent,
          id: undefined,
          publicId: newPublicId(),
          name: `${agent.name} (copy)`.slice(0, 50),
          shareCode: null,
          createdBy: ctx.userId,
          createdAt: deps.now(),
          updatedAt: deps.now(),
        })
        .returning({ id: agents.id });
      return toAgent(await find(space.id, row.id));
    },

    async remove(ctx: AuthContext, id: string) {
      const { agent } = await findForChange(ctx, id, 'agent.delete');
      await db.delete(agents).where(eq(agents.id, agent.id));
      await changed(agent.id);
    },

    /** Turning sharing on always makes a new random link, so turning it off and on revokes the old one. */
    async share(ctx: AuthContext, id: string, enabled: boolean) {
      const { agent } = await findForChange(ctx, id, 'agent.edit');
      const shareCode = enabled ? randomBytes(12).toString('base64url') : null;
      await db.update(agents).set({ shareCode }).where(eq(agents.id, agent.id));
      await changed(agent.id);
      return { enabled, url: shareUrl(shareCode) };
    },

    /** The agent behind a share link; a dissolved team's links lead nowhere. */
    async findByShareCode(code: string) {
      const [row] = await db
        .select({ agent: agents })
        .from(agents)
        .innerJoin(spaces, eq(spaces.id, agents.spaceId))
        .where(and(eq(agents.shareCode, code), isNull(spaces.dissolvedAt)))
        .limit(1);
      if (!row) throw new AppError('SHARE_NOT_FOUND');
      return row.agent;
    },
  };
}
