import { BaseSequencer, type TestSpecification } from 'vitest/node';

// The order of each group of lanes (vitest.config.ts): vitest's own (slowest first by the last
// run's times, else the largest file first), with the unit suites after the others, where their
// seconds fill the workers the long suites leave idle at the end, and test/final after every other
// file, so a final check sees what the whole run did.
export class FinalChecksLast extends BaseSequencer {
  async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const rank = (f: TestSpecification) => (f.moduleId.includes('/test/final/') ? 2 : f.project.name === 'unit' ? 1 : 0);
    return [0, 1, 2].flatMap((r) => sorted.filter((f) => rank(f) === r));
  }
}
