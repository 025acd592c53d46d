/**
 * `policyfuzz/config`: the project config (policyfuzz.config.json or .ts), typed. A .ts config
 * can `export default defineConfig({...})` and get completion for every key.
 */
import type { z } from 'zod';
import { loadConfig, parseConfig, type PolicyfuzzConfig } from '../engine/config/config-file.ts';
import { ConfigSchema } from '../engine/config/config-schema.ts';
import { findConfig, CONFIG_FILE_NAMES } from '../engine/config/config-shape.ts';

export type ConfigInput = z.input<typeof ConfigSchema>;

export function defineConfig(config: ConfigInput): ConfigInput {
  return config;
}

export { ConfigSchema, loadConfig, parseConfig, findConfig, CONFIG_FILE_NAMES, type PolicyfuzzConfig };
