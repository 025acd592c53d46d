/**
 * Team trees (rule 11): random depth (each node's parent is any earlier node or none), random
 * is_public at any level, positions that collide; members on random nodes carrying every
 * private column, with e-mails that are often one of the signed-up people's (written
 * differently), so the resolvers and sync_my_team_permissions have something to find.
 */
import fc from 'fast-check';
import type { Row } from '../../../engine/model/json.ts';
import type { ModelSettings } from '../model/settings.ts';
import { personName } from './faker.ts';
import { emailAddressFor } from './email-draw.ts';
import type { Person } from './identities.ts';
import { storedEmail, studentNumber, wildcardLookalike } from './student.ts';

const fixedId = fc.noShrink(fc.uuid({ version: 4 }));

/** The node kinds drawn by name (no setting holds them; a target's CHECK or enum is paired with them by init). */
export const NODE_KINDS = ['team', 'division', 'committee'] as const;

export function teamTree(maxNodes = 8): fc.Arbitrary<Row[]> {
  return fc
    .uniqueArray(
      fc.noShrink(fc.record({
        id: fixedId,
        parent: fc.option(fc.nat(), { nil: null, freq: 5 }),
        name: fc.constantFrom('Board', 'Design', 'Ops', 'Events', 'PR', 'Tech', 'Finance'),
        kind: fc.constantFrom(...NODE_KINDS),
        position: fc.integer({ min: 0, max: 3 }),
        is_public: fc.boolean().chain((b) => (b ? fc.constant(true) : fc.boolean())),
      })),
      { minLength: 1, maxLength: maxNodes, selector: (n) => n.id },
    )
    .map((nodes) =>
      nodes.map(({ parent, ...n }, i): Row => ({ ...n, parent_id: i === 0 || parent === null ? null : nodes[parent % i].id })),
    );
}

export function teamMembers(settings: ModelSettings, nodes: Row[], list: Person[], max = 8): fc.Arbitrary<Row[]> {
  const email = list.length
    ? fc.oneof(
        { weight: 3, arbitrary: fc.constantFrom(...list.map((p) => p.email)).chain(storedEmail(settings, 'team_members', 'email')) },
        { weight: 1, arbitrary: emailAddressFor(settings) },
        // A stranger's membership only a pattern match (like/ilike) takes for the person's.
        { weight: 2, arbitrary: fc.constantFrom(...list.map((p) => p.email)).chain(wildcardLookalike).chain(storedEmail(settings, 'team_members', 'email')) },
      )
    : emailAddressFor(settings);
  return fc.array(
    fc.noShrink(fc.record({
      id: fixedId,
      node_id: fc.constantFrom(...nodes.map((n) => n.id as string)),
      name: fc.noShrink(personName),
      nickname: fc.option(fc.constantFrom('Ace', 'Bee', 'Kit', 'Moe'), { nil: null }),
      position: fc.option(fc.constantFrom('Lead', 'Member', 'Advisor'), { nil: null }),
      email,
      student_id: fc.option(studentNumber, { nil: null }),
      year: fc.option(fc.integer({ min: 1, max: 6 }), { nil: null }),
      major: fc.option(fc.constantFrom('CS', 'EE', 'Law'), { nil: null }),
      permissions: fc.subarray(settings.permissions),
      vs_dept: fc.option(fc.constantFrom(...settings.departments), { nil: null }),
      project_seat: fc.option(fc.constantFrom('A1', 'B2', 'C3'), { nil: null }),
      user_id: fc.option(fc.constantFrom(...(list.length ? list.map((p) => p.id) : [null])), { nil: null }),
    })),
    { maxLength: max },
  );
}
