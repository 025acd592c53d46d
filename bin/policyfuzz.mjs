#!/usr/bin/env node
// policyfuzz is TypeScript run by tsx: no build step between a checkout and a run.
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../harness/cli/main.ts');
process.exitCode = await main(process.argv);
