/**
 * The route table under TanStack Query: `useQuery(routeQuery(routes.getRun,
 * { params: { id } }))` fetches (with an abort signal), dedupes, caches and
 * refetches a GET; `routeKey(routes.listVersions, { params: { name } })` is
 * the key to invalidate after a change. Keys start with the route's path, so
 * invalidating `routeKey(routes.getRun)` hits every run.
 *
 * Owns: query keys and options. Does not: fetch by itself (api.ts does).
 */
import type { QueryKey } from '@tanstack/react-query';
import type { RouteAnswer, RouteDef, RouteInput } from '../api/route-def';
import { callRoute, type ApiError } from './api';

/** `['api', path, params, query]`, or a prefix of it when params and query are left out */
export function routeKey<R extends RouteDef>(route: R, input?: Partial<RouteInput<R>>): QueryKey {
  const i = (input ?? {}) as { params?: unknown; query?: unknown };
  if (i.params === undefined && i.query === undefined) return ['api', route.path];
  if (i.query === undefined) return ['api', route.path, i.params ?? {}];
  return ['api', route.path, i.params ?? {}, i.query];
}

export type RouteQueryOptions<R extends RouteDef> = {
  queryKey: QueryKey;
  queryFn: (ctx: { signal: AbortSignal }) => Promise<RouteAnswer<R>>;
};

export function routeQuery<R extends RouteDef>(route: R, input: RouteInput<R>): RouteQueryOptions<R> {
  return { queryKey: routeKey(route, input), queryFn: ({ signal }) => callRoute(route, input, { signal }) };
}

export type { ApiError };
