#!/usr/bin/env node
/**
 * The action's pull-request comment: posts the Markdown of `policyfuzz diff` as ONE comment on
 * the pull request and updates that same comment on every later push (found by a hidden marker),
 * so a pull request never collects a pile of them. Reads the GitHub Actions environment:
 * GITHUB_EVENT_PATH (the pull request's number), GITHUB_REPOSITORY, GITHUB_API_URL; the token
 * and the file come from PF_TOKEN and PF_COMMENT_FILE. Exit 0 with a note when there is nothing
 * to post (not a pull request, no file); exit 1 when GitHub refuses.
 */
import { existsSync, readFileSync } from 'node:fs';

export const MARKER = '<!-- policyfuzz:pr-comment -->';
const MAX_BODY = 65_000; // GitHub refuses comments over 65 536 characters

function note(text) {
  process.stdout.write(`policyfuzz comment: ${text}\n`);
}

async function github(method, url, token, body) {
  const res = await fetch(url, {
    method,
    headers: { accept: 'application/vnd.github+json', authorization: `Bearer ${token}`, 'x-github-api-version': '2022-11-28', ...(body ? { 'content-type': 'application/json' } : {}) },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  if (!res.ok) throw new Error(`${method} ${url}: HTTP ${res.status} ${await res.text()}`);
  return res.status === 204 ? null : res.json();
}

export async function postComment(env = process.env) {
  const file = env.PF_COMMENT_FILE;
  if (!file || !existsSync(file)) return note(`no comment file${file ? ` at ${file}` : ''}: nothing to post`), 'skipped';
  const event = env.GITHUB_EVENT_PATH && existsSync(env.GITHUB_EVENT_PATH) ? JSON.parse(readFileSync(env.GITHUB_EVENT_PATH, 'utf8')) : {};
  const number = event.pull_request?.number ?? event.issue?.number;
  if (!number) return note('not a pull request event: nothing to post'), 'skipped';
  if (!env.PF_TOKEN) throw new Error('no token: give the action github-token (the default is the workflow token)');
  if (!env.GITHUB_REPOSITORY) throw new Error('GITHUB_REPOSITORY is not set');
  const api = (env.GITHUB_API_URL ?? 'https://api.github.com').replace(/\/$/, '');
  let text = readFileSync(file, 'utf8').trim();
  if (text.length > MAX_BODY) text = `${text.slice(0, MAX_BODY)}\n\n… (cut: the full text is in the job summary and the reports artifact)`;
  const body = `${MARKER}\n${text}\n`;
  const base = `${api}/repos/${env.GITHUB_REPOSITORY}/issues`;
  for (let page = 1; page <= 20; page++) {
    const comments = await github('GET', `${base}/${number}/comments?per_page=100&page=${page}`, env.PF_TOKEN);
    const mine = comments.find((c) => typeof c.body === 'string' && c.body.startsWith(MARKER));
    if (mine) {
      await github('PATCH', `${base}/comments/${mine.id}`, env.PF_TOKEN, { body });
      note(`updated comment ${mine.id} on #${number}`);
      return 'updated';
    }
    if (comments.length < 100) break;
  }
  const created = await github('POST', `${base}/${number}/comments`, env.PF_TOKEN, { body });
  note(`posted comment ${created.id} on #${number}`);
  return 'posted';
}

if (import.meta.url === `file://${process.argv[1]}`) {
  postComment().catch((e) => {
    process.stderr.write(`policyfuzz comment: ${e.message}\n`);
    process.exit(1);
  });
}
