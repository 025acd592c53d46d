/** A vitest setup file: every test file removes the temp folders it made with tempDir(). */
import { afterAll } from 'vitest';
import { removeTempDirs } from './temp-dir.ts';

afterAll(() => removeTempDirs());
