/**
 * passport.admin_leaderboard's length is the model's choice (settings.passport.leaderboardSize: the
 * spec names none). stranger-app-9's `limit 100` answered 11 rows where the model answered 10, and
 * the failure named no setting ("rows touched: model 10, database 11"), as if a leak. It now names
 * the setting and its value, as a table's rowsSetting is named.
 */
import { describe, expect, it } from 'vitest';
import { allowed } from '../../../engine/model/outcome.ts';
import { compareOutcomes, settingHintsFor } from '../../../engine/checker/compare.ts';
import { referenceOracleWith } from './index.ts';
import { defaultSettings } from './settings.ts';

describe("admin_leaderboard's length", () => {
  it('a difference in the rows it answers names passport.leaderboardSize with its value', () => {
    const hints = settingHintsFor(referenceOracleWith(defaultSettings), { kind: 'rpc', fn: 'passport.admin_leaderboard', args: {} });
    const rows = (n: number) => Array.from({ length: n }, (_, i) => ({ user_id: `u${i}`, points: 100 - i }));
    expect(compareOutcomes(allowed(rows(10), 10), allowed(rows(11), 11), [], undefined, hints)?.reason).toBe('rows touched: model 10, database 11 (which rows a caller reaches: setting passport.leaderboardSize = 10)');
  });
});
