import type { FastifyRequest } from 'fastify';

/**
 * Who makes the change a request asks for, for the audit log: its user, its id and its client's IP. The answer is
 * an `AuditContext` of modules/audit, written out here because shared/ is used by the modules and imports none.
 */
export function auditContextOf(request: FastifyRequest): { actorUserId: string; requestId: string; ip: string } {
  return { actorUserId: request.user.id, requestId: request.id, ip: request.ip };
}
