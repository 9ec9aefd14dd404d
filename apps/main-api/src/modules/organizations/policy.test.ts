import { type MembershipRole, membershipRoles } from '@platform/db';
import { describe, expect, it } from 'vitest';
import { allows, permissions, permissionToChangeMember, refusalMessage, rolesByPermission } from './policy.js';

// The table of issue and docs/decisions.md#roles, role by role: a change to the policy shows up here first.
const expected: Record<MembershipRole, string[]> = {
  owner: [
    'organization:read',
    'billing:write',
    'developer:write',
    'members:write',
    'owners:write',
    'audit:read',
    'wallet:test_top_up',
    // Going live is the owner's alone (docs/decisions.md#going-live).
    'organization:activate',
    'verifications:read',
    // Verified personal data: owners and admins only, each read audited (docs/decisions.md#verified-data).
    'verifications:read_personal_data',
    'verifications:cancel',
    'records:write',
  ],
  admin: [
    'organization:read',
    'billing:write',
    'developer:write',
    'members:write',
    'audit:read',
    'wallet:test_top_up',
    'verifications:read',
    'verifications:read_personal_data',
    'verifications:cancel',
    'records:write',
  ],
  // Those who may make an API key read and cancel sessions as a key would (docs/decisions.md#organization-session-list).
  developer: [
    'organization:read',
    'developer:write',
    'wallet:test_top_up',
    'verifications:read',
    'verifications:cancel',
  ],
  billing: ['organization:read', 'billing:write', 'wallet:test_top_up'],
  member: ['organization:read'],
  // Reviewing is a role of its own: no owner or admin decides verifications (docs/decisions.md#manual-review).
  reviewer: ['organization:read', 'reviews:decide'],
  // So is confirming money received, and seeing what to refund: finance staff only (docs/decisions.md#finance-role).
  finance: ['organization:read', 'transfers:confirm', 'refunds:read'],
};

describe('the role policy', () => {
  it.each(membershipRoles)('gives %s exactly its permissions', (role) => {
    expect(permissions.filter((permission) => allows(role, permission))).toEqual(expected[role]);
  });

  it('lists every role it names among the membership roles, in their order (owner first)', () => {
    for (const roles of Object.values(rolesByPermission)) {
      expect(roles.every((role) => membershipRoles.includes(role))).toBe(true);
      expect([...roles].sort((a, b) => membershipRoles.indexOf(a) - membershipRoles.indexOf(b))).toEqual(roles);
    }
  });

  it('names the roles that may do it in the refusal', () => {
    expect(refusalMessage('billing:write')).toBe('This needs the role owner, admin or billing');
    expect(refusalMessage('owners:write')).toBe('This needs the role owner');
    expect(refusalMessage('audit:read')).toBe('This needs the role owner or admin');
    expect(refusalMessage('reviews:decide')).toBe('This needs the role reviewer');
    expect(refusalMessage('transfers:confirm')).toBe('This needs the role finance');
    expect(refusalMessage('verifications:cancel')).toBe('This needs the role owner, admin or developer');
  });

  it('asks for owners:write when an owner is involved, members:write otherwise', () => {
    expect(permissionToChangeMember('member', 'admin')).toBe('members:write');
    expect(permissionToChangeMember('member', 'owner')).toBe('owners:write');
    expect(permissionToChangeMember('owner', 'admin')).toBe('owners:write');
    expect(permissionToChangeMember('developer')).toBe('members:write');
    expect(permissionToChangeMember('owner')).toBe('owners:write');
  });
});
