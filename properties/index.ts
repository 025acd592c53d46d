/** Every data-layer property, in rule order. */
import type { DataProperty } from '../harness/runner/data-property.ts';
import type { CatalogProperty } from '../harness/runner/catalog-property.ts';
import { R01 } from './R01-owner-guard.ts';
import { R02 } from './R02-users-role.ts';
import { R03 } from './R03-vs-submitter-guard.ts';
import { R06 } from './R06-vs-scope-move.ts';
import { R09 } from './R09-vs-definer-scope.ts';
import { R12 } from './R12-vs-submitter-view.ts';
import { R13 } from './R13-vs-public-board.ts';
import { R04 } from './R04-shop-buyer.ts';
import { R05 } from './R05-insert-representation.ts';
import { R07 } from './R07-soft-delete.ts';
import { R08 } from './R08-unresolvable-denied.ts';
import { R14 } from './R14-lookup-equality.ts';
import { R10 } from './R10-projects.ts';
import { R11 } from './R11-org-chart.ts';
import { R15, R15_CATALOG } from './R15-function-grants.ts';
import { R16, R16_CATALOG } from './R16-table-grants.ts';
import { R17 } from './R17-identity-conflicts.ts';
import { R18 } from './R18-student-record.ts';
import { R19 } from './R19-passport-profiles.ts';
import { R20 } from './R20-no-session.ts';

export const dataProperties: DataProperty[] = [R01, R02, R03, R04, R05, R06, R07, R08, R09, R10, R11, R12, R13, R14, R15, R16, R17, R18, R19, R20];

/** Catalog properties (rules 15, 16): checked once per run against the catalog, reported like data properties. */
export const catalogProperties: CatalogProperty[] = [R15_CATALOG, R16_CATALOG];
