/**
 * An array of an enum (`permissions app_permission[]`) holds only its labels: Postgres refuses any
 * other element as input (22P02) before a policy or guard runs. The model draws such a list as
 * words of any kind (a URL, tricky text), so a write carrying one is a case the target cannot
 * hold, not a disagreement on a rule: dropped and counted, whatever the model expected (a values
 * mapping pairs words; no mapping pairs free text). After stranger-app-7, whose users.permissions
 * became an enum array once init mapped it.
 */
import type { Json } from '../model/json.ts';
import { targetName, type ApiRequest } from '../model/request.ts';
import { targetColumn, targetTable } from '../mapping/mapping.ts';
import type { FixturePlan } from './fixtures.ts';

export function unrealizableEnumArrayWrite(plan: Pick<FixturePlan, 'shapes' | 'mapping'>, request: ApiRequest): string | undefined {
  if (!plan.shapes || (request.kind !== 'insert' && request.kind !== 'update')) return undefined;
  const table = targetName(request);
  const onTarget = plan.mapping ? targetTable(plan.mapping, table) : table;
  const columns = plan.shapes.get(onTarget) ?? [];
  for (const row of request.kind === 'insert' ? request.rows : [request.patch]) {
    for (const [column, value] of Object.entries(row)) {
      if (!Array.isArray(value)) continue;
      const target = plan.mapping ? targetColumn(plan.mapping, table, column) : column;
      const labels = columns.find((c) => c.name === target)?.elementEnumLabels;
      const outside = labels && (value as Json[]).find((v) => typeof v !== 'string' || !labels.includes(v));
      if (outside !== undefined) return `${onTarget}.${target} is an array of an enum: an element outside its labels is refused as input (22P02) before any rule`;
    }
  }
  return undefined;
}
