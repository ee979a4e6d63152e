import { mediaRoutes as routes } from '@athena/contract';
import type { FastifyInstance } from 'fastify';
import { authedRoute } from '../../platform/http/route.ts';
import type { ItemService } from './item.service.ts';
import type { LibraryService } from './library.service.ts';

export function registerMediaRoutes(app: FastifyInstance, deps: { libraries: LibraryService; items: ItemService }) {
  const { libraries, items } = deps;
  authedRoute(app, routes.groupList, (_body, ctx) => libraries.listGroups(ctx));
  authedRoute(app, routes.groupCreate, (body, ctx) => libraries.createGroup(ctx, body.name));
  authedRoute(app, routes.groupRename, (body, ctx) => libraries.renameGroup(ctx, body.id, body.name));
  authedRoute(app, routes.groupDelete, (body, ctx) => libraries.deleteGroup(ctx, body.id));
  authedRoute(app, routes.libraryList, (body, ctx) => libraries.list(ctx, body));
  authedRoute(app, routes.libraryGet, (body, ctx) => libraries.get(ctx, body.id));
  authedRoute(app, routes.libraryCreate, (body, ctx) => libraries.create(ctx, body));
  authedRoute(app, routes.libraryUpdate, (body, ctx) => libraries.update(ctx, body));
  authedRoute(app, routes.libraryMove, (body, ctx) => libraries.move(ctx, body.id, body.group_id));
  authedRoute(app, routes.libraryDelete, (body, ctx) => libraries.remove(ctx, body.id));
  authedRoute(app, routes.itemList, (body, ctx) => items.list(ctx, body));
  authedRoute(app, routes.itemGet, (body, ctx) => items.get(ctx, body.id));
  authedRoute(app, routes.itemUrl, (body, ctx) => items.url(ctx, body.id));
  authedRoute(app, routes.itemUpdate, (body, ctx) => items.update(ctx, body.id, body.description));
  authedRoute(app, routes.itemMove, (body, ctx) => items.move(ctx, body.id, body.library_id));
  authedRoute(app, routes.itemDelete, (body, ctx) => items.trash(ctx, body.id));
  authedRoute(app, routes.itemRestore, (body, ctx) => items.restore(ctx, body.id));
  authedRoute(app, routes.itemPurge, (body, ctx) => items.purge(ctx, body.id));
  authedRoute(app, routes.itemAuxImageClear, (body, ctx) => items.clearCover(ctx, body.id));
  authedRoute(app, routes.itemReprocess, (body, ctx) => items.reprocess(ctx, body.id));
  authedRoute(app, routes.usage, (_body, ctx) => items.usage(ctx));
}
