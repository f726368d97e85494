// Next's ambient types (CSS modules, images, process.env) for `tsc -p .` on a clean clone, before
// `next build` has written its own next-env.d.ts (which is not committed).
/// <reference types="next" />
/// <reference types="next/image-types/global" />
