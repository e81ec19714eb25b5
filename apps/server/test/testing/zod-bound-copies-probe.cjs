// Preloaded (--require) into a spawned process by lean-schemas-at-start.spec.ts: counts the zod
// schemas made with zod 3's own bound copies of its methods, i.e. before lean-zod.ts was applied.
// The constructor's last bound assignment is `this.isOptional = …`: an accessor on the prototype
// sees each one until lean-zod.ts replaces it. The count is written to stderr once the main
// module has been evaluated (every schema made at import is made by then).
'use strict';
const Module = require('node:module');
const fs = require('node:fs');

let made = 0;
const load = Module._load;
Module._load = function probeLoad(request, ...rest) {
  const exported = load.call(this, request, ...rest);
  if (request === 'zod' && exported && exported.ZodType && Module._load === probeLoad) {
    Module._load = load;
    const prototype = exported.ZodType.prototype;
    const isOptional = prototype.isOptional;
    Object.defineProperty(prototype, 'isOptional', {
      configurable: true,
      get() {
        return isOptional;
      },
      set(value) {
        made += 1;
        Object.defineProperty(this, 'isOptional', { value, writable: true, configurable: true, enumerable: true });
      },
    });
  }
  return exported;
};
setTimeout(() => fs.writeSync(2, `zod-bound-copies-probe: ${made} schemas made with bound copies\n`), 0);
