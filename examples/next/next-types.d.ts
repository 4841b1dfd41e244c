// What `next build` writes to next-env.d.ts (gitignored), so the app type-checks before a build.
/// <reference types="next" />
/// <reference types="next/image-types/global" />
