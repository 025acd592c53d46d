/** Every data-layer property, in rule order. */
import type { DataProperty } from '../harness/runner/data-property.ts';
import { R02 } from './R02-users-role.ts';

export const dataProperties: DataProperty[] = [R02];
