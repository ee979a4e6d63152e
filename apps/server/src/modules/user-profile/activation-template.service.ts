import type { ActivationMode } from '@athena/contract';
import type { AuthContext } from '../../platform/auth-guard.ts';
import { AppError } from '../../platform/http/app-error.ts';
import { presentTemplate } from './activation.presenters.ts';
import type { ActivationRepo } from './activation.repo.ts';
import { unknownVariables } from './activation-render.ts';
import type { ActivationWriter } from './activation-writer.ts';
import { type FieldRepo, isUniqueViolation } from './field.repo.ts';
import { type ProfileScope, profileScope } from './profile-scope.ts';
import type { ProfileValueRepo } from './profile-value.repo.ts';

type TemplateBody = { name: string; mode: ActivationMode; body: string };

/**
 * Activation templates of a scene: every member reads them; the creator and admins, who send
 * activation events (`profile.activate`), write them. A template's variables must be fields of the
 * scene (or `customer_name`), so a typo is found when it is saved, not when customers get it.
 */
export function createActivationTemplateService(deps: {
  repo: ActivationRepo;
  fields: FieldRepo;
  values: ProfileValueRepo;
  writer: ActivationWriter;
  now: () => Date;
}) {
  const { repo } = deps;

  async function checkVariables(scope: ProfileScope, body: TemplateBody) {
    if (body.mode !== 'template') return;
    const names = (await deps.fields.list(scope)).map((field) => field.name);
    const unknown = unknownVariables(body.body, names);
    if (unknown.length > 0) {
      throw new AppError('ACTIVATION_VARIABLES_UNKNOWN', {
        variables: unknown.map((name) => `{{${name}}}`).join(', '),
      });
    }
  }

  /** The name is unique in the scene whatever its case (activation_templates_name_key). */
  const nameTaken = (error: unknown): never => {
    if (isUniqueViolation(error)) throw new AppError('ACTIVATION_TEMPLATE_NAME_TAKEN');
    throw error;
  };

  return {
    async list(ctx: AuthContext) {
      const scope = profileScope(ctx, 'profile.view');
      return { items: (await repo.listTemplates(scope)).map(presentTemplate) };
    },

    async create(ctx: AuthContext, body: TemplateBody) {
      const scope = profileScope(ctx, 'profile.activate');
      await checkVariables(scope, body);
      return presentTemplate(await repo.insertTemplate(scope, body).catch(nameTaken));
    },

    async update(ctx: AuthContext, body: TemplateBody & { id: string }) {
      const scope = profileScope(ctx, 'profile.activate');
      const template = await repo.template(scope, body.id);
      await checkVariables(scope, body);
      const { name, mode } = body;
      return presentTemplate(
        await repo.updateTemplate(template.id, { name, mode, body: body.body }, deps.now()).catch(nameTaken),
      );
    },

    async remove(ctx: AuthContext, id: string) {
      const scope = profileScope(ctx, 'profile.activate');
      const template = await repo.template(scope, id);
      await repo.removeTemplate(template.id);
      return { ok: true as const };
    },

    /** The message one customer would get; an empty variable without a fallback is named, as a send would fail. */
    async preview(ctx: AuthContext, body: { mode: ActivationMode; body: string; customer_id: string }) {
      const scope = profileScope(ctx, 'profile.activate');
      await checkVariables(scope, { name: '', ...body });
      const customerId = await deps.values.customerIn(scope, body.customer_id);
      if (body.mode === 'agent' && !(await deps.writer.modelOf(scope.spaceId, scope.sceneId))) {
        throw new AppError('ACTIVATION_NO_MODEL');
      }
      const written = await deps.writer.write(scope, customerId, body, scope.userId);
      if (written.ok) return { text: written.text };
      if (written.reason === 'variable_empty') {
        throw new AppError('ACTIVATION_VARIABLES_EMPTY', {
          variables: written.empty.map((name) => `{{${name}}}`).join(', '),
        });
      }
      throw new AppError('ACTIVATION_MODEL_FAILED', { reason: written.detail });
    },
  };
}

export type ActivationTemplateService = ReturnType<typeof createActivationTemplateService>;
