/**
 * `fuzz --timings` through the real binary: summary.json always says where the time went
 * (start-up and its parts, the phases after it, per property generation, model, database and
 * shrinking), the parts fit inside their wholes, and --timings prints the same.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, inject, it } from 'vitest';
import { runBin } from '../testing/run-bin.ts';
import { tempDir } from '../testing/temp-dir.ts';
import type { RunSummary } from '../engine/report/summary.ts';

describe('where the time goes', () => {
  it('summary.json has timings whose parts add up within their wholes; --timings prints them', async () => {
    const reports = tempDir('timings');
    const workers = 2;
    const args = ['fuzz', '--only', 'R02,R11', '--runs', '60', '--workers', String(workers), '--no-sso', '--seed', '3', '--no-replay', '--database-url', inject('databaseUrl'), '--report-dir', reports, '--failures-dir', path.join(reports, 'failures')];
    // The template is built (not a kept one), so the migrations take time of their own.
    const r = await runBin([...args, '--timings'], { env: { ...process.env, POLICYFUZZ_TEMPLATE_CACHE: 'off' } });
    expect(r.code, r.stdout + r.stderr).toBe(0);
    const summary = JSON.parse(readFileSync(path.join(reports, 'summary.json'), 'utf8')) as RunSummary;
    const t = summary.timings!;
    expect(Object.keys(t).sort()).toEqual(['catalogMs', 'migrationsMs', 'properties', 'propertiesMs', 'replayMs', 'serverMs', 'ssoMs', 'startupMs', 'templateMs', 'totalMs', 'workersMs']);
    expect(t.totalMs).toBe(summary.durationMs);
    expect(t.migrationsMs).toBeGreaterThan(0);
    // The start-up's parts fit in it; the phases one after another fit in the run.
    expect(t.serverMs + t.migrationsMs + t.templateMs + t.workersMs).toBeLessThanOrEqual(t.startupMs);
    expect(t.startupMs + t.replayMs + t.propertiesMs + t.catalogMs + t.ssoMs).toBeLessThanOrEqual(t.totalMs);
    expect(Object.keys(t.properties)).toEqual(['R02', 'R11']);
    // Each property within the data properties' phase (a run starts as the one before frees a lane, so their sum may pass it a little).
    for (const id of ['R02', 'R11']) expect(t.properties[id].totalMs, id).toBeLessThanOrEqual(t.propertiesMs);
    for (const [id, p] of Object.entries(t.properties)) {
      expect(Object.keys(p).sort(), id).toEqual(['databaseMs', 'generationMs', 'modelMs', 'shrinkingMs', 'totalMs']);
      expect(p.totalMs, id).toBe(summary.properties.find((q) => q.id === id)!.durationMs);
      // Cases were drawn, predicted and sent: each part took time, none more than every lane's whole run (+1 ms of rounding per part).
      for (const part of [p.generationMs!, p.modelMs!, p.databaseMs!]) {
        expect(part, id).toBeGreaterThan(0);
        expect(part, id).toBeLessThanOrEqual(p.totalMs * workers + 1);
      }
      // Nothing failed: nothing was shrunk.
      expect(p.shrinkingMs, id).toBe(0);
    }
    const printed = r.stdout.slice(r.stdout.indexOf('timings: total'));
    expect(printed).toMatch(new RegExp(`^timings: total ${t.totalMs} ms\\n  start-up ${t.startupMs} ms \\(server ${t.serverMs} ms, migrations ${t.migrationsMs} ms, template ${t.templateMs} ms, workers ${t.workersMs} ms\\)`));
    expect(printed).toMatch(new RegExp(`\\n  R02\\s+${t.properties.R02.totalMs} ms: generation ${t.properties.R02.generationMs} ms, model ${t.properties.R02.modelMs} ms, database ${t.properties.R02.databaseMs} ms, shrinking 0 ms\\n`));

    // Without --timings nothing is printed; the summary has them all the same.
    const plainDir = tempDir('timings-plain');
    const plain = await runBin([...args, '--report-dir', plainDir]);
    expect(plain.stdout).not.toMatch(/timings: total/);
    expect((JSON.parse(readFileSync(path.join(plainDir, 'summary.json'), 'utf8')) as RunSummary).timings!.properties.R02.databaseMs).toBeGreaterThan(0);
  });
});
