import type { InvitationCreate, KeyCreate, MemberUpdate } from '../../lib/api/inputs/workspace';
import { isAtLeast, type Role, type Scope } from '../../lib/api/roles';
import type { Member } from '../../lib/api/schemas/workspace';
import type { Clock } from '../core/clock';
import { Conflict, Forbidden, NotFound } from '../core/domain-errors';
import type { Database } from '../db/driver';
import type { Actor } from '../store/accounts';
import {
  createInvitation,
  type InvitationVerdict,
  peekInvitation,
  spendInvitation,
} from '../store/invitations';
import {
  changeMember,
  createAgentKey,
  findMember,
  insertMember,
  isMemberEmail,
  listMembers,
  lockOwners,
  removeMemberRow,
} from '../store/members';

type Maker = Actor & { id: string };
interface Deps {
  db: Database;
  clock: Clock;
}

const a = (role: Role) => `${role === 'owner' || role === 'admin' || role === 'editor' ? 'an' : 'a'} ${role}`;

/** Refuses a role above the maker's, and a scope wider than the maker's own. */
function mustGrant(maker: Maker, role: Role, scope: Scope | null): void {
  if (!isAtLeast(maker.role, role))
    throw new Forbidden(`${cap(a(maker.role))} may not give the role ${role}, which is above their own.`);
  if (!maker.scope) return;
  const own = new Set(maker.scope.tags);
  if (!scope || scope.tags.some((tag) => !own.has(tag)))
    throw new Forbidden(
      `A member limited to the tags ${maker.scope.tags.join(', ')} may only give a scope within those tags.`,
    );
}

/** Refuses an act on a member whose role is above the maker's (an admin on an owner). */
function mustOutrank(maker: Maker, target: Member, act: string): void {
  if (!isAtLeast(maker.role, target.role))
    throw new Forbidden(`${cap(a(maker.role))} may not ${act} ${a(target.role)}.`);
}

const cap = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/** A key for an agent, named by the key, with a role and a scope the maker may give. */
export async function makeAgentKey({ db, clock }: Deps, maker: Maker, body: KeyCreate) {
  const scope = body.scope ?? null;
  mustGrant(maker, body.role, scope);
  return db.transaction((tx) =>
    createAgentKey(tx, clock, maker.id, {
      name: body.name,
      role: body.role,
      scope,
      expiresInDays: body.expires_in_days ?? null,
    }),
  );
}

/** An invitation's one-time link for a person who is not yet a member; `linkOf` makes the address of a token. */
export async function invite(
  { db, clock }: Deps,
  maker: Maker,
  body: InvitationCreate,
  linkOf: (token: string) => string,
) {
  const scope = body.scope ?? null;
  mustGrant(maker, body.role, scope);
  if (await isMemberEmail(db, body.email)) {
    const here = (await listMembers(db, maker.id)).some(
      (member) => member.email?.toLowerCase() === body.email.toLowerCase(),
    );
    throw new Conflict(
      'conflict',
      here
        ? `${body.email} is already a member of this workspace.`
        : `${body.email} already signs in to another workspace; a person is a member of one workspace.`,
    );
  }
  const offer = {
    accountId: maker.id,
    email: body.email,
    role: body.role,
    scope,
    invitedBy: maker.member.id,
  };
  const { token, expiresAt } = await createInvitation(db, clock, offer);
  return {
    email: body.email,
    role: body.role,
    scope,
    url: linkOf(token),
    expires_at: expiresAt.toISOString(),
  };
}

const SPENT = {
  unknown: 'This invitation link is not valid: ask for a new one.',
  used: 'This invitation link was used already: sign in instead, or ask for a new one.',
  expired: 'This invitation link has expired (links last 7 days): ask for a new one.',
};

/** The offer of a link that can still be used, or a 409 that says why it cannot. */
function usable(verdict: InvitationVerdict) {
  if (typeof verdict === 'string') throw new Conflict('conflict', SPENT[verdict]);
  return verdict;
}

/** What an invitation's link offers (its email, workspace and role), or why it cannot be used; it stays unspent. */
export async function readInvitation({ db, clock }: Deps, token: string) {
  const { email, workspace, role } = usable(await peekInvitation(db, clock, token));
  return { email, workspace, role };
}

/** Makes the person an invitation's link names a member, with the password they chose. Answers their member id. */
export async function acceptInvitation(
  { db, clock }: Deps,
  token: string,
  passwordHash: string,
): Promise<string> {
  return db.transaction(async (tx) => {
    const offer = usable(await spendInvitation(tx, clock, token));
    if (await isMemberEmail(tx, offer.email))
      throw new Conflict('conflict', `${offer.email} is already a member: sign in instead.`);
    return insertMember(tx, clock, { ...offer, name: offer.email, email: offer.email, passwordHash });
  });
}

/** Changes a member's role or scope; never above the maker's, never the last owner's role. */
export async function updateMember(
  { db }: Deps,
  maker: Maker,
  id: string,
  change: MemberUpdate,
): Promise<Member> {
  return db.transaction(async (tx) => {
    const owners = await lockOwners(tx, maker.id);
    const target = await findMember(tx, maker.id, id);
    if (!target) throw new NotFound('member');
    mustOutrank(maker, target, 'change');
    mustGrant(maker, change.role ?? target.role, change.scope === undefined ? target.scope : change.scope);
    if (target.role === 'owner' && change.role && change.role !== 'owner') mustKeepAnOwner(owners, id);
    return (await changeMember(tx, maker.id, id, change)) as Member;
  });
}

/** Removes a member: their keys are revoked and their sign-ins end; never the last owner. */
export async function removeMember({ db, clock }: Deps, maker: Maker, id: string): Promise<void> {
  await db.transaction(async (tx) => {
    const owners = await lockOwners(tx, maker.id);
    const target = await findMember(tx, maker.id, id);
    if (!target) throw new NotFound('member');
    mustOutrank(maker, target, 'remove');
    if (target.role === 'owner') mustKeepAnOwner(owners, id);
    await removeMemberRow(tx, clock, maker.id, id);
  });
}

function mustKeepAnOwner(owners: string[], leaving: string): void {
  if (owners.every((owner) => owner === leaving))
    throw new Conflict('conflict', 'A workspace keeps at least one owner: make another member owner first.');
}
