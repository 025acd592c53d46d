#!/usr/bin/env node
// Writes docs/reference-model.md from the reference model (packs/reference/model/reference-doc.ts).
// Run after changing a table, column, setting default or function of the reference pack.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { register } from 'tsx/esm/api';

register({ tsconfig: false });
const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const { referenceModelDoc } = await import(path.join(root, 'packs/reference/model/reference-doc.ts'));
writeFileSync(path.join(root, 'docs/reference-model.md'), referenceModelDoc());
console.log('wrote docs/reference-model.md');
