import { profileRoutes as r } from '@athena/contract';
import type { FastifyInstance } from 'fastify';
import { authedRoute } from '../../platform/http/route.ts';
import type { FieldService } from './field.service.ts';
import type { ProfileService } from './profile.service.ts';
import type { ProfileExtraction } from './profile-extraction.command.ts';

export function registerUserProfileRoutes(
  app: FastifyInstance,
  deps: { fields: FieldService; profiles: ProfileService; extraction: ProfileExtraction },
) {
  const { fields, profiles, extraction } = deps;
  authedRoute(app, r.fieldList, (_body, ctx) => fields.list(ctx));
  authedRoute(app, r.fieldCreate, (body, ctx) => fields.create(ctx, body));
  authedRoute(app, r.fieldUpdate, (body, ctx) => fields.update(ctx, body));
  authedRoute(app, r.fieldDelete, (body, ctx) => fields.remove(ctx, body.id));
  authedRoute(app, r.fieldReorder, (body, ctx) => fields.reorder(ctx, body.ids));
  authedRoute(app, r.customerList, (body, ctx) => profiles.list(ctx, body));
  authedRoute(app, r.customerCount, (body, ctx) => profiles.count(ctx, body));
  authedRoute(app, r.customerGet, (body, ctx) => profiles.get(ctx, body.id));
  authedRoute(app, r.valueSet, (body, ctx) => profiles.set(ctx, body));
  authedRoute(app, r.history, (body, ctx) => profiles.history(ctx, body));
  authedRoute(app, r.revert, (body, ctx) => profiles.revert(ctx, body.change_id));
  authedRoute(app, r.extract, (body, ctx) => extraction.extractForCustomer(ctx, body.customer_id));
  authedRoute(app, r.extractStatus, (body, ctx) => extraction.statusForCustomer(ctx, body.customer_id));
}
