// Build only (scripts/build.mjs): the bundle's pools, written by the bundled faker module once every module declaring a pool is loaded.
import '../packs/reference/properties.ts';
export { writeKeptPools } from '../packs/reference/generators/faker.ts';
