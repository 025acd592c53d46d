import fc from 'fast-check';
import { bodyOf } from '../client/client.ts';
import { Disagreement, expectThat, freshLogin, goodTokenRequest, isSuccessAnswer, isUniformFailure, pickClient, pickUser, replySummary, runFcProperty, type SsoProperty } from './kit.ts';

/** A code works once: every later exchange fails, and of k concurrent exchanges at most one succeeds. */
export const S02: SsoProperty = {
  id: 'S02',
  title: 'A login code is redeemed at most once, also under concurrent exchanges',
  severity: 'M',
  run: (ctx, opts) =>
    runFcProperty(
      S02,
      opts,
      fc.record({ client: pickClient(ctx), user: pickUser(ctx), replays: fc.integer({ min: 1, max: 3 }), concurrent: fc.integer({ min: 2, max: 4 }), scheduler: fc.scheduler() }),
      async ({ client, user, replays, concurrent, scheduler }, counts) => {
        // Sequential: the first exchange succeeds, every replay gets the uniform failure.
        const first = await freshLogin(ctx, client, user);
        const body = goodTokenRequest(client, first.code);
        const { reply: firstReply } = await ctx.client.exchange(body);
        // Success is what counts here, not the answer's shape (S12 reports a drifted one).
        expectThat(isSuccessAnswer(firstReply), 'the first exchange of a fresh code must succeed', { status: 200, body: { ok: true } }, { status: firstReply.status, body: bodyOf(firstReply) });
        for (let i = 1; i <= replays; i++) {
          const { reply } = await ctx.client.exchange(body);
          counts.add(isUniformFailure(reply) ? 'replay-refused' : 'replay-accepted');
          expectThat(isUniformFailure(reply), `replay #${i} of a redeemed code must fail`, { status: 200, body: { ok: false, error: 'AUTH0001' } }, replySummary(reply));
        }
        // Concurrent: the scheduler picks the order in which k exchanges are sent.
        const second = await freshLogin(ctx, client, user);
        const raceBody = goodTokenRequest(client, second.code);
        const calls = Array.from({ length: concurrent }, (_, i) =>
          scheduler.schedule(Promise.resolve(i), `exchange#${i}`).then(() => ctx.client.exchange(raceBody)),
        );
        await scheduler.waitAll();
        const results = await Promise.all(calls);
        const wins = results.filter((r) => isSuccessAnswer(r.reply)).length;
        counts.add(`race-${wins}-winner${wins === 1 ? '' : 's'}`);
        if (wins > 1) throw new Disagreement(`${wins} of ${concurrent} concurrent exchanges of one code succeeded`, 'at most one success', results.map((r) => replySummary(r.reply)));
      },
    ),
};
