import { BaseSequencer, type TestSpecification } from 'vitest/node';

// Files run one at a time (vitest.config.ts); this order puts test/final/* after every
// other file, so a final check sees what the whole run did.
export class FinalChecksLast extends BaseSequencer {
  async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const isFinal = (f: TestSpecification) => f.moduleId.includes('/test/final/');
    return [...sorted.filter((f) => !isFinal(f)), ...sorted.filter(isFinal)];
  }
}
