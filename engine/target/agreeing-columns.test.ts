/**
 * Fixture rows on a schema strict about integrity (re-created after stranger-app-12, written as a
 * database-first team using Supabase's declarative schemas does): CHECKs tying a column the model
 * does not know to one it draws (`(status in ('resolved','closed')) = (closed_at is not null)`,
 * `deleted_at is null or deleted_at >= created_at`, a verdict and its decision's columns), and
 * range columns (`daterange`, `tstzrange` under an exclusion constraint). Before, such rows were
 * refused (most of R04's and R08's cases dropped, R08 with no verdict) or the range's value broke
 * the fixtures (`malformed range literal`, R17 and R18 a harness error).
 */
import { describe, expect, it } from 'vitest';
import { schemaInTransaction } from '../../testing/schema-in-transaction.ts';
import { columnAgreements } from '../introspection/column-agreements.ts';
import { readTableShapes } from '../introspection/table-shapes.ts';
import { fixtureStatements } from './fixtures.ts';
import type { World } from '../model/world.ts';

const SCHEMA = `
create schema agree;
create extension if not exists btree_gist;
create type agree.ticket_status as enum ('open', 'resolved', 'closed');
create table agree.tickets (
  id int primary key,
  status agree.ticket_status not null default 'open',
  created_at timestamptz not null default now(),
  closed_at timestamptz,
  deleted_at timestamptz,
  constraint closed_agrees check ((status in ('resolved', 'closed')) = (closed_at is not null)),
  constraint closed_after_created check (closed_at is null or closed_at >= created_at),
  constraint deleted_after_created check (deleted_at is null or deleted_at >= created_at)
);
create table agree.requests (
  id int primary key,
  verdict text not null default 'pending' check (verdict in ('pending', 'approved', 'rejected')),
  decided_by uuid,
  decided_at timestamptz,
  constraint decision_agrees check ((verdict = 'pending') = (decided_at is null and decided_by is null))
);
create table agree.records (
  id int primary key,
  enrolled daterange not null check (not isempty(enrolled) and not lower_inf(enrolled)),
  handler int not null default 1,
  on_call tstzrange not null,
  constraint one_shift_at_a_time exclude using gist (handler with =, on_call with &&)
);
`;

describe('CHECKs tying one column to another, as Postgres prints them', () => {
  it('reads presence (with a list, one value, several columns) and order, and nothing else', () => {
    expect(columnAgreements(`CHECK (((status = ANY (ARRAY['resolved'::agree.ticket_status, 'closed'::agree.ticket_status])) = (closed_at IS NOT NULL)))`)).toEqual([
      { kind: 'presence', key: 'status', values: ['resolved', 'closed'], columns: ['closed_at'], present: true },
    ]);
    expect(columnAgreements(`CHECK (((verdict = 'pending'::text) = ((decided_at IS NULL) AND (decided_by IS NULL))))`)).toEqual([
      { kind: 'presence', key: 'verdict', values: ['pending'], columns: ['decided_at', 'decided_by'], present: false },
    ]);
    expect(columnAgreements(`CHECK (((deleted_at IS NULL) OR (deleted_at >= created_at)))`)).toEqual([{ kind: 'order', later: 'deleted_at', earlier: 'created_at', strict: false }]);
    expect(columnAgreements(`CHECK (((ends_at IS NULL) OR (starts_at < ends_at)))`)).toEqual([{ kind: 'order', later: 'ends_at', earlier: 'starts_at', strict: true }]);
    expect(columnAgreements(`CHECK ((total = (subtotal + fee)))`)).toBeUndefined();
    expect(columnAgreements(`CHECK (((a IS NULL) OR (b IS NULL)))`)).toBeUndefined();
  });
});

describe('fixture rows the model draws without the agreeing columns', () => {
  const client = schemaInTransaction(SCHEMA);

  async function write(world: World): Promise<Record<string, unknown>[]> {
    const shapes = await readTableShapes(client(), ['agree']);
    await client().query('savepoint w');
    try {
      for (const s of fixtureStatements(world, Object.keys(world), { users: 'direct', bypassTriggers: false, shapes })) await client().query(s.sql);
      const tables = Object.keys(world).map((t) => `(select coalesce(json_agg(to_jsonb(x) order by x.id), '[]') from ${t} x)`);
      return (await client().query<{ rows: Record<string, unknown>[] }>(`select ${tables.join(' || ')}::jsonb as rows`)).rows[0].rows;
    } finally {
      await client().query('rollback to savepoint w');
    }
  }

  it('a resolved ticket gets a closed_at, an open one none, and created_at is no later than a drawn deleted_at', async () => {
    const rows = await write({
      'agree.tickets': [
        { id: 1, status: 'resolved' },
        { id: 2, status: 'open', deleted_at: '2020-05-01T00:00:00Z' },
        { id: 3, status: 'closed', deleted_at: '2020-05-01T00:00:00Z' },
      ],
    });
    expect(rows.map((r) => [r.id, r.closed_at !== null, r.deleted_at === null || Date.parse(String(r.created_at)) <= Date.parse(String(r.deleted_at))])).toEqual([
      [1, true, true],
      [2, false, true],
      [3, true, true],
    ]);
  });

  it('rows of one table written together: one given a created_at, the others are given one too (an omitted key is written null, not its default)', async () => {
    const rows = await write({ 'agree.tickets': [{ id: 1, status: 'open' }, { id: 2, status: 'open', deleted_at: '2020-05-01T00:00:00Z' }] });
    expect(rows.map((r) => [r.id, r.created_at !== null])).toEqual([
      [1, true],
      [2, true],
    ]);
  });

  it('a decided request gets a decision time, a pending one none', async () => {
    const rows = await write({ 'agree.requests': [{ id: 1, verdict: 'approved' }, { id: 2, verdict: 'pending' }] });
    expect(rows.map((r) => [r.id, r.decided_at !== null])).toEqual([
      [1, true],
      [2, false],
    ]);
  });

  it('a value the model drew is never rewritten: one that breaks the CHECK stays the database refusal', async () => {
    await expect(write({ 'agree.tickets': [{ id: 1, status: 'open', closed_at: '2026-01-02T00:00:00Z' }] })).rejects.toThrow(/closed_agrees/);
  });

  it('range columns are filled bounded, not empty, and apart (an exclusion constraint holds)', async () => {
    const rows = await write({ 'agree.records': [{ id: 1 }, { id: 2 }] });
    expect(rows.map((r) => r.id)).toEqual([1, 2]);
    expect(rows.every((r) => typeof r.enrolled === 'string' && /^\[\d{4}-\d\d-\d\d,\d{4}-\d\d-\d\d\)$/.test(r.enrolled))).toBe(true);
  });
});
