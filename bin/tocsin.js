#!/usr/bin/env node
// The TypeScript sources are compiled to dist/ by `npm install` (the prepare script).
import '../dist/src/cli/main.js';
