import { defineConfig, mergeConfig } from 'vitest/config';
import shared from '../../vitest.shared.ts';

// Each file starts a fleet of service instances with their own pools; one file at a time keeps the suite's
// share of PostgreSQL's connections (shared by every package's tests in CI) small.
export default mergeConfig(shared, defineConfig({ test: { fileParallelism: false } }));
