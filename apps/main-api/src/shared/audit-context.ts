import type { FastifyRequest } from 'fastify';
import type { AuditContext } from '../modules/audit/index.js';

/** Who makes the change a request asks for, for the audit log: its user, its id and its client's IP. */
export function auditContextOf(request: FastifyRequest): AuditContext {
  return { actorUserId: request.user.id, requestId: request.id, ip: request.ip };
}
