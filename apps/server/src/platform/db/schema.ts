// Transitional: each module owns its tables in modules/<domain>/<domain>.schema.ts. Import from
// there; this re-export goes once nothing imports it.

export * from '../../modules/agent/agent.schema.ts';
export * from '../../modules/auth/auth.schema.ts';
export * from '../../modules/auth/auth.schema.ts';
export * from '../../modules/custom-business/custom-business.schema.ts';
export * from '../../modules/knowledge/knowledge.schema.ts';
export * from '../../modules/model-key/model-key.schema.ts';
export * from '../../modules/realname/realname.schema.ts';
export * from '../../modules/space/space.schema.ts';
export * from '../../modules/team/team.schema.ts';
